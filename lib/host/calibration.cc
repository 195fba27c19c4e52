#include "calibration.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "rfk/format.hpp"
#include "rfk/host/train.hpp"

namespace rfk::host {

namespace {

double W(const std::vector<double>& w, std::size_t i) { return w.empty() ? 1.0 : w[i]; }

// log(1 + e^t) without overflow.
double Log1pExp(double t) { return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

// Platt's objective: sum_i w_i [t_i (A s_i + B) + log(1 + e^-(A s_i + B))] with p = 1/(1+e^f),
// f = A s + B, i.e. the cross-entropy of targets t against p.
double PlattLoss(const std::vector<double>& s, const std::vector<double>& t, const std::vector<double>& w,
                 double A, double B) {
  double L = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double f = A * s[i] + B;
    L += W(w, i) * (t[i] * f + Log1pExp(-f));
  }
  return L;
}

// Softmax log loss sum_i w_i [log sum_k e^{A S_ik} - A S_i,cls] and its first two derivatives in A.
void SoftmaxLoss(const std::vector<double>& S, std::uint32_t K, const std::vector<std::uint32_t>& cls,
                 const std::vector<double>& w, double A, double* L, double* g, double* h) {
  *L = *g = *h = 0;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    const double* s = S.data() + i * K;
    double top = A * s[0];
    for (std::uint32_t k = 1; k < K; ++k) top = std::max(top, A * s[k]);
    double z = 0, m1 = 0, m2 = 0;
    for (std::uint32_t k = 0; k < K; ++k) {
      const double e = std::exp(A * s[k] - top);
      z += e;
      m1 += e * s[k];
      m2 += e * s[k] * s[k];
    }
    m1 /= z;
    m2 /= z;
    const double wi = W(w, i);
    *L += wi * (top + std::log(z) - A * s[cls[i]]);
    *g += wi * (m1 - s[cls[i]]);
    *h += wi * (m2 - m1 * m1);
  }
}

}  // namespace

Calibration FitPlatt(const std::vector<double>& s, const std::vector<std::uint8_t>& y,
                     const std::vector<double>& w) {
  double np = 0, nn = 0;
  for (std::size_t i = 0; i < s.size(); ++i) (y[i] ? np : nn) += W(w, i);
  if (!(np > 0) || !(nn > 0)) throw TrainError("calibration: the held-out rows lack one of the two classes");
  const double hi = (np + 1) / (np + 2), lo = 1 / (nn + 2);
  std::vector<double> t(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) t[i] = y[i] ? hi : lo;
  double A = 0, B = std::log((nn + 1) / (np + 1));
  double L = PlattLoss(s, t, w, A, B);
  for (int it = 0; it < 100; ++it) {
    double g1 = 0, g2 = 0, h11 = 1e-12, h22 = 1e-12, h21 = 0;  // Platt's small ridge on the Hessian
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double f = A * s[i] + B;
      const double p = f >= 0 ? std::exp(-f) / (1 + std::exp(-f)) : 1 / (1 + std::exp(f));
      const double q = 1 - p, wi = W(w, i);
      const double d2 = wi * p * q, d1 = wi * (t[i] - p);
      h11 += s[i] * s[i] * d2;
      h22 += d2;
      h21 += s[i] * d2;
      g1 += s[i] * d1;
      g2 += d1;
    }
    if (std::fabs(g1) < 1e-9 * (np + nn) && std::fabs(g2) < 1e-9 * (np + nn)) break;
    const double det = h11 * h22 - h21 * h21;
    const double dA = -(h22 * g1 - h21 * g2) / det, dB = -(-h21 * g1 + h11 * g2) / det;
    const double gd = g1 * dA + g2 * dB;
    double step = 1;
    while (step >= 1e-10) {
      const double nA = A + step * dA, nB = B + step * dB, nL = PlattLoss(s, t, w, nA, nB);
      if (nL < L + 1e-4 * step * gd) {
        A = nA;
        B = nB;
        L = nL;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;  // no decrease along Newton's direction: at the optimum in doubles
  }
  return {static_cast<std::uint32_t>(format::CalibrationMethod::kPlatt), A, B};
}

Calibration FitSoftmaxScale(const std::vector<double>& S, std::uint32_t K,
                            const std::vector<std::uint32_t>& cls, const std::vector<double>& w) {
  // Convex in A: Newton from A = 1, bracketed by [lo, hi] where the derivative changes sign.
  double lo = 0, hi = HUGE_VAL, A = 1, L, g, h;
  for (int it = 0; it < 100; ++it) {
    SoftmaxLoss(S, K, cls, w, A, &L, &g, &h);
    if (g < 0) lo = A; else hi = A;
    if (std::fabs(g) <= 1e-10 * std::max(1.0, std::fabs(A) * h)) break;
    double next = h > 0 ? A - g / h : HUGE_VAL;
    if (!(next > lo && next < hi)) next = std::isfinite(hi) ? 0.5 * (lo + hi) : 2 * A;
    if (next == A) break;
    A = next;
  }
  return {static_cast<std::uint32_t>(format::CalibrationMethod::kSoftmax), A, 0.0};
}

double CalibratedLogLoss(const Calibration& c, const std::vector<double>& S, std::uint32_t K,
                         const std::vector<std::uint32_t>& cls, const std::vector<double>& w) {
  double L = 0, n = 0;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    double li;
    if (c.method == static_cast<std::uint32_t>(format::CalibrationMethod::kPlatt)) {
      const double f = c.scale * S[i] + c.bias;  // p1 = 1/(1+e^f): -log p1 = log(1+e^f)
      li = cls[i] == 1 ? Log1pExp(f) : Log1pExp(-f);
    } else {
      double g, h;
      SoftmaxLoss({S.begin() + static_cast<std::ptrdiff_t>(i * K), S.begin() + static_cast<std::ptrdiff_t>((i + 1) * K)},
                  K, {cls[i]}, {}, c.scale, &li, &g, &h);
    }
    L += W(w, i) * li;
    n += W(w, i);
  }
  return L / n;
}

}  // namespace rfk::host
