#include "tests/util/test_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

extern char** environ;

namespace mrlocal::testing {

namespace fs = std::filesystem;

ScratchDir::ScratchDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path p = fs::temp_directory_path() /
                 ("mrlocal-test-" + std::to_string(getpid()) + "-" + std::to_string(rd()));
    std::error_code ec;
    if (fs::create_directory(p, ec)) {
      path_ = p;
      return;
    }
  }
  throw std::runtime_error("cannot create a scratch directory");
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  // Restore permissions a test may have removed so that cleanup succeeds.
  for (auto it = fs::recursive_directory_iterator(path_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
  }
  fs::remove_all(path_, ec);
}

void WriteFile(const fs::path& p, std::string_view bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::map<std::string, std::string> DirectoryTree(const fs::path& dir) {
  std::map<std::string, std::string> tree;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(e.path(), dir).string();
    if (e.is_directory())
      tree[name + "/"] = "";
    else
      tree[name] = ReadFile(e.path());
  }
  return tree;
}

std::set<std::string> EntryNames(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::vector<std::string> ChildEnvironment() {
  static ScratchDir dir;
  std::vector<std::string> env;
  bool history = false;
  for (char** e = environ; *e; ++e) {
    env.emplace_back(*e);
    history |= env.back().rfind("MRLOCAL_HISTORY=", 0) == 0;
  }
  if (!history) env.push_back("MRLOCAL_HISTORY=" + (dir / "history.json").string());
  return env;
}

bool Contains(std::string_view text, std::string_view fragment) {
  return text.find(fragment) != std::string_view::npos;
}

int CountLines(std::string_view text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

void ExpectUsageError(const CommandResult& r, std::string_view fragment) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(CountLines(r.err), 1) << r.err;
  EXPECT_TRUE(Contains(r.err, "error")) << r.err;
  EXPECT_TRUE(Contains(r.err, fragment)) << r.err;
}

CommandResult RunMrlocal(const std::vector<std::string>& args) {
  return RunProgram(MRLOCAL_BIN, args);
}

CommandResult RunProgram(const std::string& program, const std::vector<std::string>& args,
                         const std::vector<std::string>& extra_env) {
  ScratchDir tmp;
  fs::path out = tmp / "stdout", err = tmp / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_s = {program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  std::vector<std::string> env_s = extra_env;  // first: getenv takes the first of a name
  for (std::string& e : ChildEnvironment()) env_s.push_back(std::move(e));
  std::vector<char*> env;
  for (auto& e : env_s) env.push_back(e.data());
  env.push_back(nullptr);
  int rc = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot start " + program);
  int status = 0;
  waitpid(pid, &status, 0);
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadFile(out);
  r.err = ReadFile(err);
  return r;
}

fs::path SharedDatasets() {
  fs::path p = MRLOCAL_SHARED_DATASETS;
  std::error_code ec;
  return fs::is_directory(p, ec) ? fs::canonical(p) : fs::path();
}

std::map<std::string, uint64_t> ReferenceWordCount(std::string_view text) {
  std::map<std::string, uint64_t> counts;
  std::string word;
  auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : '\0';
    if (is_letter(c) || (c == '\'' && !word.empty())) {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!word.empty()) {
      ++counts[word];
      word.clear();
    }
  }
  return counts;
}

std::map<std::string, std::string> ReadJobOutput(const fs::path& dir, KeyOrder order) {
  std::map<std::string, std::string> all;
  std::vector<fs::path> parts;
  for (auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("part-r-", 0) == 0) parts.push_back(e.path());
  }
  std::sort(parts.begin(), parts.end());
  for (auto& p : parts) {
    std::string text = ReadFile(p);
    std::string prev;
    bool first = true;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      EXPECT_NE(nl, std::string::npos) << p << ": last line has no newline";
      if (nl == std::string::npos) nl = text.size();
      std::string_view line(text.data() + pos, nl - pos);
      size_t tab = line.find('\t');
      EXPECT_NE(tab, std::string_view::npos) << p << ": line without a tab: " << line;
      std::string key(line.substr(0, tab));
      if (!first && order == KeyOrder::kBytes) {
        EXPECT_LT(prev, key) << p << ": keys not strictly ascending";
      }
      if (!first && order == KeyOrder::kNumeric) {
        EXPECT_TRUE(prev.size() < key.size() || (prev.size() == key.size() && prev < key))
            << p << ": keys not numerically ascending: " << prev << ", " << key;
      }
      EXPECT_TRUE(all.emplace(key, std::string(line.substr(tab + 1))).second)
          << "key " << key << " in two parts";
      prev = key;
      first = false;
      pos = nl + 1;
    }
  }
  return all;
}

std::string ReadMaybeGzip(const fs::path& p) {
  if (p.extension() != ".gz") return ReadFile(p);
  gzFile f = gzopen(p.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + p.string());
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(f);
  if (n < 0) throw std::runtime_error("cannot decompress " + p.string());
  return out;
}

void WriteGzip(const fs::path& p, std::string_view bytes, int members) {
  std::string all;
  for (int m = 0; m < members; ++m) {
    size_t begin = bytes.size() * m / members, end = bytes.size() * (m + 1) / members;
    fs::path part = p.string() + ".member";
    gzFile f = gzopen(part.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + part.string());
    if (end > begin && gzwrite(f, bytes.data() + begin, static_cast<unsigned>(end - begin)) <= 0)
      throw std::runtime_error("gzwrite failed");
    gzclose(f);
    all += ReadFile(part);
    fs::remove(part);
  }
  WriteFile(p, all);
}

std::map<uint64_t, std::set<uint64_t>> ReferenceFriends(std::string_view edges) {
  std::map<uint64_t, std::set<uint64_t>> friends;
  std::istringstream in{std::string(edges)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string first;
    if (!(fields >> first) || first[0] == '#') continue;
    uint64_t u, v;
    std::istringstream both(line);
    if (!(both >> u >> v)) continue;
    if (u == v) continue;
    friends[u].insert(v);
    friends[v].insert(u);
  }
  return friends;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

}  // namespace mrlocal::testing
