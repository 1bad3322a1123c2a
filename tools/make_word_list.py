#!/usr/bin/env python3
"""Computes datasets/english_words.txt, the word list of mrlocal's built-in corpus.

    python3 tools/make_word_list.py [BOOKS_DIR] [--words N] [-o FILE]

BOOKS_DIR defaults to ../shared/datasets/text/gutenberg (beside the repository), FILE to
datasets/english_words.txt. Every *.txt of BOOKS_DIR is read; where a file has Project
Gutenberg's header and licence (the "*** START OF" and "*** END OF" lines), only the text
between them counts. Words are WordCount's (apps/wordcount.h): runs of ASCII letters and
apostrophes, leading apostrophes dropped, lower-cased. The N most frequent are written,
most frequent first (ties in byte order), one "word count" a line.
"""
import argparse
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORD_BYTES = re.compile(rb"[A-Za-z']+")  # WordCount's word bytes; any other byte separates

TITLES = {
    "pg11": "Alice's Adventures in Wonderland, Lewis Carroll",
    "pg16": "Peter Pan, J. M. Barrie",
    "pg74": "The Adventures of Tom Sawyer, Mark Twain",
    "pg76": "Adventures of Huckleberry Finn, Mark Twain",
    "pg98": "A Tale of Two Cities, Charles Dickens",
    "pg174": "The Picture of Dorian Gray, Oscar Wilde",
    "pg236": "The Jungle Book, Rudyard Kipling",
    "pg345": "Dracula, Bram Stoker",
    "pg1342": "Pride and Prejudice, Jane Austen",
    "pg1399": "Anna Karenina, Leo Tolstoy (tr. Garnett)",
    "pg1661": "The Adventures of Sherlock Holmes, Arthur Conan Doyle",
    "pg2554": "Crime and Punishment, Fyodor Dostoevsky (tr. Garnett)",
    "pg2600": "War and Peace, Leo Tolstoy (tr. Maude)",
    "pg2701": "Moby Dick, Herman Melville",
    "pg5200": "Metamorphosis, Franz Kafka",
}


def body(text: bytes) -> bytes:
    """The book without Project Gutenberg's header and licence, where it has them."""
    start = text.find(b"*** START OF")
    if start >= 0:
        text = text[text.index(b"\n", start) + 1:]
    end = text.find(b"*** END OF")
    return text[:end] if end >= 0 else text


def words(text: bytes):
    for run in WORD_BYTES.finditer(text):
        word = run.group().lstrip(b"'").lower()
        if word:
            yield word


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("books", nargs="?", type=pathlib.Path,
                        default=ROOT.parent / "shared" / "datasets" / "text" / "gutenberg")
    parser.add_argument("--words", type=int, default=5000)
    parser.add_argument("-o", "--output", type=pathlib.Path,
                        default=ROOT / "datasets" / "english_words.txt")
    args = parser.parse_args()
    books = sorted(args.books.glob("*.txt"), key=lambda p: int(p.stem.lstrip("pg") or 0))
    if not books:
        print(f"make_word_list: no *.txt in {args.books}", file=sys.stderr)
        return 2
    counts = collections.Counter()
    header = []
    for book in books:
        text = book.read_bytes()
        counts.update(words(body(text)))
        header.append(f"#   {book.name:<11} {len(text):>9} bytes  {TITLES.get(book.stem, '')}")
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:args.words]
    total = sum(counts.values())
    with open(args.output, "w", encoding="ascii", newline="\n") as out:
        out.write(
            f"# The word list of mrlocal's built-in corpus (datasets/text_generator.h): the\n"
            f"# {len(top)} most frequent words of {len(books)} public-domain books of Project "
            f"Gutenberg,\n"
            f"# most frequent first, one \"word count\" a line; word k is the corpus's rank k.\n"
            f"# Computed by tools/make_word_list.py (run it to regenerate this file) from\n"
            f"# ../shared/datasets/text/gutenberg:\n")
        out.write("\n".join(header) + "\n")
        out.write(
            "# Only the text between a file's \"*** START OF\" and \"*** END OF\" lines counts,\n"
            "# where it has them (Project Gutenberg's header and licence). Words are WordCount's\n"
            "# (apps/wordcount.h): runs of ASCII letters and apostrophes, leading apostrophes\n"
            "# dropped, lower-cased; every other byte separates words, the curly apostrophe\n"
            "# (U+2019) of the three translations too: there \"don't\" is \"don\" and \"t\".\n"
            "# Ties in count go in byte order.\n"
            + f"# The books hold {total} words, {len(counts)} distinct.\n")
        for word, n in top:
            out.write(f"{word.decode('ascii')} {n}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
