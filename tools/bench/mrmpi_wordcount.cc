// WordCount on MR-MPI (Sandia's MapReduce-MPI, Debian libmrmpi-dev), the established MPI
// MapReduce library, for the side-by-side figure of issue 18 (tools/bench/bench_mpi.sh).
// It runs as MR-MPI's own examples/wordfreq.cpp does: map over chunks of the file split at
// newlines, collate (MR-MPI's all-to-all shuffle), reduce to counts; with --combine, a
// compress (a per-rank combiner) first, as a tuned MR-MPI job would. Words are tokenized
// as mrlocal's WordCount does (ASCII letters, an apostrophe inside a word, lowercased), so
// the distinct-word counts of the two can be compared.
//
//   mpirun -np N bench_mrmpi_wordcount FILE [--combine]
// prints one line: ranks, bytes, seconds (map through reduce, after a barrier), MB/s,
// distinct words, total words.
#include <mpi.h>
#include <mrmpi/keyvalue.h>
#include <mrmpi/mapreduce.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>

using MAPREDUCE_NS::KeyValue;
using MAPREDUCE_NS::MapReduce;

namespace {

bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void MapChunk(int, char* text, int size, KeyValue* kv, void*) {
  std::string word;
  for (int i = 0; i <= size; ++i) {
    const char c = i < size ? text[i] : '\0';
    if (IsLetter(c) || (c == '\'' && !word.empty())) {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!word.empty()) {
      uint64_t one = 1;
      kv->add(word.data(), static_cast<int>(word.size()), reinterpret_cast<char*>(&one),
              sizeof one);
      word.clear();
    }
  }
}

// Sums a key's counts (the reduce, and the combiner).
void Sum(char* key, int key_bytes, char* values, int n, int* value_bytes, KeyValue* kv, void*) {
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, values, sizeof v);
    total += v;
    values += value_bytes[i];
  }
  kv->add(key, key_bytes, reinterpret_cast<char*>(&total), sizeof total);
}

void CountWords(char*, int, char* value, int, void* total) {
  uint64_t v = 0;
  std::memcpy(&v, value, sizeof v);
  *static_cast<uint64_t*>(total) += v;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc < 2) {
    if (rank == 0) std::fprintf(stderr, "usage: bench_mrmpi_wordcount FILE [--combine]\n");
    MPI_Finalize();
    return 2;
  }
  const bool combine = argc > 2 && std::strcmp(argv[2], "--combine") == 0;
  struct stat st {};
  if (stat(argv[1], &st) != 0) {
    if (rank == 0) std::fprintf(stderr, "bench_mrmpi_wordcount: cannot stat %s\n", argv[1]);
    MPI_Finalize();
    return 2;
  }
  MapReduce* mr = new MapReduce(MPI_COMM_WORLD);
  mr->verbosity = 0;
  mr->timer = 0;
  mr->memsize = 256;  // MiB pages: the whole job stays in memory, no out-of-core files
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  // 8 map tasks per rank, the file split at newlines (MR-MPI reads each chunk itself and
  // looks up to 1 MiB past its end for the newline: the dictionary has long lines).
  mr->map(ranks * 8, 1, &argv[1], 0, 0, '\n', 1 << 20, MapChunk, nullptr);
  if (combine) mr->compress(Sum, nullptr);
  mr->collate(nullptr);
  const uint64_t distinct = mr->reduce(Sum, nullptr);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t0;
  uint64_t mine = 0, words = 0;
  mr->scan(CountWords, &mine);
  MPI_Reduce(&mine, &words, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("mrmpi%s ranks=%d bytes=%lld seconds=%.3f MB/s=%.1f distinct=%llu words=%llu\n",
                combine ? "+combine" : "", ranks, static_cast<long long>(st.st_size), seconds,
                static_cast<double>(st.st_size) / 1e6 / seconds,
                static_cast<unsigned long long>(distinct), static_cast<unsigned long long>(words));
  delete mr;
  MPI_Finalize();
  return 0;
}
