// Deterministic power-law graphs as SNAP-style edge lists, for jobs over graphs (friends,
// mutual friends) with a chosen key skew. The same options give the same bytes on any
// machine and with any number of threads.
//
// Skew is measured as real graphs are: the distinct-neighbour degree of u is the number of
// distinct nodes joined to u by an edge in either direction (self-loops not counted), and
// the skew is the largest such degree over their mean among nodes that have one.
// facebook_combined has 24, soc-Slashdot0902 208.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

enum class GraphModel {
  // Chung-Lu: both endpoints of each edge drawn independently, node i with weight
  // (i + 1)^-alpha; alpha is calibrated to the skew.
  kChungLu,
  // R-MAT (Chakrabarti et al. 2004): quadrant probabilities (a, b, b, d) with b : d kept
  // at Graph500's 0.19 : 0.05; `a` is calibrated to the skew (Graph500's is 0.57).
  kRmat,
};

// "chung-lu" or "rmat"; InvalidArgument for anything else.
Result<GraphModel> ParseGraphModel(std::string_view name);
std::string_view GraphModelName(GraphModel model);

struct GraphOptions {
  uint64_t nodes = 100000;   // ids are [0, nodes); 2 <= nodes <= 2^32
  uint64_t edges = 1000000;  // lines, duplicates included; >= 1
  GraphModel model = GraphModel::kChungLu;
  // Target max/mean distinct-neighbour degree, > 1. None: kDefaultSkew, or the most the
  // model reaches with these nodes and edges when that is less (a small graph).
  std::optional<double> skew;
  uint64_t seed = 1;
};

// Makes the edge list one chunk of kChunkEdges edges at a time. Chunk i depends only on the
// options and i. Self-loops are drawn again; duplicate edges stay, as in real data. Node ids
// go through a seeded permutation, so the hubs are not the smallest ids.
class GraphGenerator {
 public:
  static constexpr double kDefaultSkew = 100;
  static constexpr uint64_t kChunkEdges = 1 << 16;

  // Checks the options and calibrates the model so that the expected skew (computed from
  // the model, duplicates and isolated nodes included) is the target. InvalidArgument when
  // an option is out of range, or the skew is more than the model reaches with these many
  // nodes and edges, or less than chance alone gives them (the largest of N Poisson
  // degrees: 2.2 for 100k nodes and 1M edges); the message says the limit. Targets within
  // about twice the chance skew come out above it (the noise adds to the model's hub).
  static Result<GraphGenerator> Create(const GraphOptions& options);

  GraphGenerator(GraphGenerator&&) noexcept;
  GraphGenerator& operator=(GraphGenerator&&) noexcept;
  ~GraphGenerator();

  // "# ..." lines: what made the graph, its size, then "# FromNodeId\tToNodeId".
  std::string Header() const;
  uint64_t chunks() const;
  // Replaces *out with chunk `index`'s "src\tdst\n" lines. Thread-safe.
  void Chunk(uint64_t index, std::string* out) const;

  // The calibrated parameter (alpha for chung-lu, a for rmat) and the skew the model
  // expects with it.
  double parameter() const;
  double expected_skew() const;

 private:
  struct Model;
  explicit GraphGenerator(std::unique_ptr<const Model> model);
  std::unique_ptr<const Model> model_;
};

// Header and every chunk, in memory, made on every core.
Result<std::string> GenerateGraph(const GraphOptions& options);

// The size of what GenerateGraph writes for `edges` edges over ids [0, nodes), within a
// fraction of a percent: its header, then one "src<TAB>dst\n" line per edge whose ids have
// the mean digits of the ids below `nodes` (the ids are permuted, so an endpoint is any id
// alike). The one graph-size formula: workload readers, simulation and calibration use it.
uint64_t GraphBytes(uint64_t nodes, uint64_t edges);

struct GraphSize {
  uint64_t nodes = 0;
  uint64_t edges = 0;
};
// The graph of about `bytes` bytes (GraphBytes' inverse): over `nodes` ids when given, else
// at the generator's default density, 10 edges per node (its 100,000 nodes and 1,000,000
// edges). At least 2 nodes and 1 edge.
GraphSize GraphForBytes(uint64_t bytes, uint64_t nodes = 0);

inline constexpr uint64_t kMaxGraphNodes = uint64_t{1} << 32;  // GraphOptions::nodes' limit

struct DegreeStats {
  uint64_t edges = 0;           // edge lines read
  uint64_t distinct_pairs = 0;  // unordered pairs {u, v}, u != v, joined by an edge
  uint64_t nodes = 0;           // nodes with at least one distinct neighbour
  uint64_t max_degree = 0;      // most distinct neighbours of one node
  uint64_t max_node = 0;        // the (smallest) node that has them
  double mean_degree = 0;       // 2 * distinct_pairs / nodes
  double skew() const { return nodes ? max_degree / mean_degree : 0; }
};

// Reads a SNAP edge list ('#' lines skipped, then "src<TAB or blank>dst" per line) and
// measures its distinct-neighbour degrees. Corruption for a malformed line.
Result<DegreeStats> MeasureDistinctDegree(std::string_view edge_list);

}  // namespace mrlocal
