// A d x p count-min sketch of partition sizes (DynamicShare's skew handling).
//
// Cell (i, j) holds the total size of the records that row i's partition function sends
// to partition j. Each map task fills one for its output; the controller sums them
// (Merge) at the end of the map phase. Row 0 is hash mod p, so Row(0) is the plain
// per-partition size S(i) = sum_m S_m(i).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/partition_hash.h"

namespace mrlocal {

class CountMinSketch {
 public:
  CountMinSketch() = default;
  explicit CountMinSketch(std::vector<PartitionHash> rows)
      : rows_(std::move(rows)),
        width_(rows_.empty() ? 0 : rows_[0].partitions),
        cells_(rows_.size() * width_, 0) {}

  int depth() const { return static_cast<int>(rows_.size()); }
  uint32_t width() const { return width_; }
  const PartitionHash& hash(int row) const { return rows_[row]; }

  // Counts a record of `size` units (bytes, list length: the app decides) with key hash h.
  void Add(uint64_t key_hash, uint64_t size) {
    for (size_t i = 0; i < rows_.size(); ++i) cells_[i * width_ + rows_[i](key_hash)] += size;
  }

  // Adds another sketch built with the same partition functions.
  void Merge(const CountMinSketch& other) {
    if (cells_.empty()) {
      *this = other;
      return;
    }
    for (size_t k = 0; k < cells_.size(); ++k) cells_[k] += other.cells_[k];
  }

  // Every cell, row after row (depth() x width()): what a sketch sent to another process
  // carries, with its rows' hashes; Cells() of an empty sketch is empty.
  std::span<const uint64_t> Cells() const { return cells_; }
  // A sketch of `rows` holding `cells` (row after row); false, leaving it unchanged, when
  // the rows disagree on their width or the cells do not fill depth x width.
  bool Assign(std::vector<PartitionHash> rows, std::vector<uint64_t> cells) {
    const uint32_t width = rows.empty() ? 0 : rows[0].partitions;
    for (const PartitionHash& h : rows)
      if (h.partitions != width || width == 0) return false;
    if (cells.size() != rows.size() * width) return false;
    rows_ = std::move(rows);
    width_ = width;
    cells_ = std::move(cells);
    return true;
  }

  std::span<const uint64_t> Row(int row) const {
    return {cells_.data() + static_cast<size_t>(row) * width_, width_};
  }

  // Count-min point estimate of the total size of records with key hash h.
  uint64_t Estimate(uint64_t key_hash) const {
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < rows_.size(); ++i) {
      uint64_t v = cells_[i * width_ + rows_[i](key_hash)];
      if (v < best) best = v;
    }
    return rows_.empty() ? 0 : best;
  }

 private:
  std::vector<PartitionHash> rows_;
  uint32_t width_ = 0;
  std::vector<uint64_t> cells_;
};

}  // namespace mrlocal
