#include "sched/estimate/cost_distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mrlocal {
namespace {

constexpr int kThetaStep = 4;  // x points between consecutive thetas

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

namespace {

std::array<double, ThetaGrid::kThetas> Thetas(bool inverse) {
  std::array<double, ThetaGrid::kThetas> t{};
  for (int i = 0; i < ThetaGrid::kThetas; ++i) {
    t[size_t(i)] = ThetaGrid::kTheta0 *
                   std::pow(10.0, double(i * kThetaStep) / CostDistribution::kXPerDecade);
    if (inverse) t[size_t(i)] = 1 / t[size_t(i)];
  }
  return t;
}
const std::array<double, ThetaGrid::kThetas> kThetaValues = Thetas(false);

}  // namespace

const std::array<double, ThetaGrid::kThetas> ThetaGrid::kInverse = Thetas(true);

double ThetaGrid::Theta(int k) { return kThetaValues[size_t(k)]; }
double ThetaGrid::InverseTheta(int k) { return kInverse[size_t(k)]; }

// theta_k * worst_s is kThetaStep k points up the x grid from theta_0 * worst_s, at the
// same fraction between two points: one logarithm per task, not one per theta.
TaskCumulants CostDistribution::OfTask(const CostDistribution* d, double worst_s) {
  TaskCumulants out{};
  if (worst_s <= 0) return out;
  if (!d) {
    for (int k = 0; k < ThetaGrid::kThetas; ++k)
      out[size_t(k)] = RoundUp(ThetaGrid::Theta(k) * worst_s);
    return out;
  }
  const double pos0 = std::log10(ThetaGrid::kTheta0 * worst_s / kX0) * kXPerDecade;
  const int i0 = static_cast<int>(std::floor(pos0));
  const double step = std::pow(10.0, 1.0 / kXPerDecade);
  const double weight = (std::pow(10.0, (pos0 - i0) / kXPerDecade) - 1) / (step - 1);
  for (int k = 0; k < ThetaGrid::kThetas; ++k) {
    const int i = i0 + kThetaStep * k;
    const double v = i >= 0 && i + 1 < kXPoints
                         ? d->k_[size_t(i)] + (d->k_[size_t(i) + 1] - d->k_[size_t(i)]) * weight
                         : d->Cumulant(ThetaGrid::Theta(k) * worst_s);
    out[size_t(k)] = RoundUp(v);
  }
  return out;
}

}  // namespace mrlocal
