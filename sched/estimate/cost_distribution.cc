#include "sched/estimate/cost_distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mrlocal {
namespace {

constexpr int kThetaStep = 2;  // x points between consecutive thetas

double XAt(int i) {
  return CostDistribution::kX0 * std::pow(10.0, double(i) / CostDistribution::kXPerDecade);
}

// A float no smaller than `v`: the stored cumulants stay upper bounds.
float RoundUp(double v) {
  const float f = static_cast<float>(v);
  return double(f) >= v ? f : std::nextafter(f, std::numeric_limits<float>::infinity());
}

}  // namespace

std::shared_ptr<const CostDistribution> CostDistribution::FromRatios(
    const std::vector<double>& ratios) {
  auto d = std::make_shared<CostDistribution>();
  std::vector<double> r;
  r.reserve(ratios.size());
  double sum = 0, top = 0;
  for (double v : ratios) {
    r.push_back(std::isfinite(v) ? std::clamp(v, 0.0, 1.0) : 1.0);
    sum += r.back();
    top = std::max(top, r.back());
  }
  d->mean_ = sum / double(r.size());
  for (int i = 0; i < kXPoints; ++i) {  // ln mean exp(x r), shifted by the top against overflow
    const double x = XAt(i);
    double s = 0;
    for (double v : r) s += std::exp(x * (v - top));
    d->k_[size_t(i)] = x * top + std::log(s / double(r.size()));
  }
  return d;
}

double CostDistribution::Cumulant(double x) const {
  if (x <= 0) return 0;
  const double pos = std::log10(x / kX0) * kXPerDecade;
  if (pos <= 0) return k_[0] * x / kX0;  // the chord from K(0) = 0
  if (pos >= kXPoints - 1) return k_[kXPoints - 1] + (x - XAt(kXPoints - 1));  // K' <= 1
  const int i = static_cast<int>(pos);
  const double x0 = XAt(i), x1 = XAt(i + 1);
  return k_[size_t(i)] + (k_[size_t(i) + 1] - k_[size_t(i)]) * (x - x0) / (x1 - x0);
}

// theta_k * worst_s is 2k points up the x grid from theta_0 * worst_s, at the same
// fraction between two points: one logarithm per task, not one per theta.
void CostDistribution::AddCumulants(double worst_s, float* out) const {
  if (worst_s <= 0) return;
  const double pos0 = std::log10(ChainTail::kTheta0 * worst_s / kX0) * kXPerDecade;
  const int i0 = static_cast<int>(std::floor(pos0));
  const double step = std::pow(10.0, 1.0 / kXPerDecade);
  const double weight = (std::pow(10.0, (pos0 - i0) / kXPerDecade) - 1) / (step - 1);
  for (int k = 0; k < ChainTail::kThetas; ++k) {
    const int i = i0 + kThetaStep * k;
    const double v = i >= 0 && i + 1 < kXPoints
                         ? k_[size_t(i)] + (k_[size_t(i) + 1] - k_[size_t(i)]) * weight
                         : Cumulant(ChainTail::Theta(k) * worst_s);
    out[k] = RoundUp(double(out[k]) + v);
  }
}

double ChainTail::Theta(int k) {
  static const std::array<double, kThetas> thetas = [] {
    std::array<double, kThetas> t{};
    for (int i = 0; i < kThetas; ++i)
      t[size_t(i)] = kTheta0 * std::pow(10.0, double(i * kThetaStep) / CostDistribution::kXPerDecade);
    return t;
  }();
  return thetas[size_t(k)];
}

void ChainTail::Add(const CostDistribution* d, double worst_s) {
  empty_ = false;
  if (d) {
    d->AddCumulants(worst_s, k_.data());
    return;
  }
  for (int k = 0; k < kThetas; ++k) k_[size_t(k)] = RoundUp(double(k_[size_t(k)]) + Theta(k) * worst_s);
}

double ChainTail::Bound(double log_inv_delta) const {
  if (empty_) return 0;
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < kThetas; ++k)
    best = std::min(best, (double(k_[size_t(k)]) + log_inv_delta) / Theta(k));
  return best;
}

}  // namespace mrlocal
