#include "engine/store_namespace.h"

#include <charconv>
#include <cstdio>
#include <set>

namespace mrlocal {
namespace {

constexpr std::string_view kMagic = "mrlocal-store 1";

// Paths may hold any byte; the namespace keeps one token per path.
std::string Escape(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
        c == '_' || c == '-' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool Unescape(std::string_view s, std::string* out) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out->push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size()) return false;
    int hi = HexDigit(s[i + 1]), lo = HexDigit(s[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

template <class T>
bool Number(std::string_view s, T* out, int base = 10) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, base);
  return ec == std::errc() && end == s.data() + s.size();
}

// A block's replica nodes, "0,2,3": distinct nodes of [0, nodes), into *out.
bool ReplicaNodes(std::string_view list, int nodes, std::vector<int>* out) {
  std::set<int> distinct;
  for (size_t pos = 0; pos <= list.size();) {
    size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    int node = -1;
    if (!Number(list.substr(pos, comma - pos), &node) || node < 0 || node >= nodes ||
        !distinct.insert(node).second)
      return false;
    out->push_back(node);
    pos = comma + 1;
  }
  return true;
}

}  // namespace

std::string EncodeNamespace(const StoreNamespace& ns) {
  std::string out;
  out += kMagic;
  out += "\nnodes " + std::to_string(ns.nodes) + "\nblock_size " + std::to_string(ns.block_size) +
         "\nreplication " + std::to_string(ns.replication) + "\nnext_block_id " +
         std::to_string(ns.next_block_id) + "\n";
  for (const FileInfo& f : ns.files) {
    out += "file " + Escape(f.path) + " " + std::to_string(f.size) + " " +
           std::to_string(f.block_size) + " " + std::to_string(f.replication) + " " +
           std::to_string(f.blocks.size()) + "\n";
    for (const BlockInfo& b : f.blocks) {
      char crc[9];
      std::snprintf(crc, sizeof crc, "%08x", b.crc);
      out += "block " + std::to_string(b.id) + " " + std::to_string(b.offset) + " " +
             std::to_string(b.length) + " " + crc + " ";
      for (size_t k = 0; k < b.replica_nodes.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(b.replica_nodes[k]);
      }
      out += "\n";
    }
  }
  return out;
}

namespace {

// `text` cut into lines without their newlines; none when its last line has no newline,
// and then `lines` holds the complete ones.
bool SplitLines(std::string_view text, std::vector<std::string_view>& lines) {
  for (size_t pos = 0; pos < text.size();) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return false;
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return true;
}

// The header after the magic line: four "key value" lines in a fixed order. What was
// expected on `line_no` when it is wrong; empty when it is right.
std::string DecodeHeader(const std::vector<std::string_view>& lines, StoreNamespace& ns,
                         size_t& line_no) {
  const char* keys[] = {"nodes", "block_size", "replication", "next_block_id"};
  for (int k = 0; k < 4; ++k) {
    line_no = static_cast<size_t>(k) + 2;
    if (lines.size() <= line_no - 1) return "truncated header";
    auto f = Fields(lines[line_no - 1]);
    bool ok = f.size() == 2 && f[0] == keys[k];
    if (ok && k == 0) ok = Number(f[1], &ns.nodes) && ns.nodes >= 1;
    if (ok && k == 1) ok = Number(f[1], &ns.block_size) && ns.block_size > 0;
    if (ok && k == 2)
      ok = Number(f[1], &ns.replication) && ns.replication >= 0 && ns.replication <= ns.nodes;
    if (ok && k == 3) ok = Number(f[1], &ns.next_block_id);
    if (!ok) return "expected '" + std::string(keys[k]) + " <valid value>'";
  }
  return {};
}

// Block `b` of `file` from its line, checked against the file and the ids seen so far.
// What is wrong with it; empty when nothing is.
std::string DecodeBlock(std::string_view line, const FileInfo& file, size_t b,
                        const StoreNamespace& ns, std::set<uint64_t>& ids, BlockInfo& block) {
  auto g = Fields(line);
  if (g.size() != 6 || g[0] != "block" || !Number(g[1], &block.id) ||
      !Number(g[2], &block.offset) || !Number(g[3], &block.length) || g[4].size() != 8 ||
      !Number(g[4], &block.crc, 16)) {
    return "expected 'block <id> <offset> <length> <crc> <nodes>'";
  }
  if (block.offset != b * file.block_size ||
      block.length != std::min(file.block_size, file.size - block.offset)) {
    return BlockName("'" + file.path + "'", block.id) + " has a wrong extent";
  }
  if (block.id >= ns.next_block_id || !ids.insert(block.id).second)
    return "block id " + std::to_string(block.id) + " is reused or out of range";
  if (!ReplicaNodes(g[5], ns.nodes, &block.replica_nodes))
    return "bad replica node list '" + std::string(g[5]) + "'";
  if (block.replica_nodes.size() != static_cast<size_t>(file.replication))
    return BlockName("'" + file.path + "'", block.id) + " has " +
           std::to_string(block.replica_nodes.size()) + " replicas, not " +
           std::to_string(file.replication);
  return {};
}

}  // namespace

Result<StoreNamespace> DecodeNamespace(std::string_view text, const std::string& source) {
  StoreNamespace ns;
  size_t line_no = 0;
  auto bad = [&](const std::string& what) {
    return Status::Corruption("store namespace '" + source + "' is damaged at line " +
                              std::to_string(line_no) + ": " + what);
  };
  std::vector<std::string_view> lines;
  if (!SplitLines(text, lines)) {
    line_no = lines.size() + 1;
    return bad("truncated (no final newline)");
  }
  if (lines.empty() || lines[0] != kMagic) {
    line_no = 1;
    return bad("not an mrlocal store namespace (expected '" + std::string(kMagic) + "')");
  }
  if (std::string why = DecodeHeader(lines, ns, line_no); !why.empty()) return bad(why);
  std::set<std::string> paths;
  std::set<uint64_t> ids;
  size_t i = 5;
  while (i < lines.size()) {
    line_no = i + 1;
    auto f = Fields(lines[i++]);
    FileInfo file;
    size_t nblocks = 0;
    if (f.size() != 6 || f[0] != "file" || !Unescape(f[1], &file.path) || file.path.empty() ||
        !Number(f[2], &file.size) || !Number(f[3], &file.block_size) || file.block_size == 0 ||
        !Number(f[4], &file.replication) || file.replication < 1 || file.replication > ns.nodes ||
        !Number(f[5], &nblocks)) {
      return bad("expected 'file <path> <size> <block size> <replication> <blocks>'");
    }
    if (!paths.insert(file.path).second) return bad("'" + file.path + "' appears twice");
    // Rounded up without (size + block_size - 1), which wraps for sizes near 2^64.
    const uint64_t expect_blocks =
        file.size / file.block_size + (file.size % file.block_size != 0 ? 1 : 0);
    if (nblocks != expect_blocks) return bad("wrong block count for '" + file.path + "'");
    for (size_t b = 0; b < nblocks; ++b) {
      line_no = i + 1;
      if (i >= lines.size()) return bad("truncated: '" + file.path + "' lacks blocks");
      BlockInfo block;
      if (std::string why = DecodeBlock(lines[i++], file, b, ns, ids, block); !why.empty())
        return bad(why);
      file.blocks.push_back(std::move(block));
    }
    ns.files.push_back(std::move(file));
  }
  return ns;
}

}  // namespace mrlocal
