#include "training/calibration.h"

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

// Solves H x = g in place (x into g) for a symmetric positive definite n x n H (row-major, its
// lower triangle overwritten by the Cholesky factor). False when H is not numerically SPD.
bool SolveSpd(std::vector<double>& H, std::vector<double>& g, std::size_t n) {
  for (std::size_t j = 0; j < n; ++j) {
    double d = H[j * n + j];
    for (std::size_t k = 0; k < j; ++k) d -= H[j * n + k] * H[j * n + k];
    if (!(d > 0)) return false;
    const double r = std::sqrt(d);
    H[j * n + j] = r;
    for (std::size_t i = j + 1; i < n; ++i) {
      double v = H[i * n + j];
      for (std::size_t k = 0; k < j; ++k) v -= H[i * n + k] * H[j * n + k];
      H[i * n + j] = v / r;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = g
    for (std::size_t k = 0; k < i; ++k) g[i] -= H[i * n + k] * g[k];
    g[i] /= H[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    for (std::size_t k = i + 1; k < n; ++k) g[i] -= H[k * n + i] * g[k];
    g[i] /= H[i * n + i];
  }
  return true;
}

// Platt's targets (N+ + 1)/(N+ + 2) and 1/(N- + 2); throws without both classes.
std::vector<double> PlattTargets(const std::vector<std::uint8_t>& y, const std::vector<double>& w) {
  double np = 0, nn = 0;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? np : nn) += W(w, i);
  if (!(np > 0) || !(nn > 0)) throw TrainError("calibration: the held-out rows lack one of the two classes");
  const double hi = (np + 1) / (np + 2), lo = 1 / (nn + 2);
  std::vector<double> t(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) t[i] = y[i] ? hi : lo;
  return t;
}

// Platt's objective with a cubic term: f = A s + B + C s^3 (C = 0: Platt's own).
double CubicLoss(const std::vector<double>& s, const std::vector<double>& t, const std::vector<double>& w,
                 const double* abc) {
  double L = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double f = abc[0] * s[i] + abc[1] + abc[2] * s[i] * s[i] * s[i];
    L += W(w, i) * (t[i] * f + Log1pExp(-f));
  }
  return L;
}

// The softmax-vector objective: weighted log loss of softmax(a_k s_k + b_k) plus mu/2 |theta -
// theta0|^2; theta = (a_0..a_{K-1}, b_1..b_{K-1}). With H and g: their sums too.
double VectorLoss(const std::vector<double>& S, std::uint32_t K, const std::vector<std::uint32_t>& cls,
                  const std::vector<double>& w, const std::vector<double>& theta, const std::vector<double>& theta0,
                  double mu, std::vector<double>* g, std::vector<double>* H) {
  const std::size_t n = 2 * std::size_t{K} - 1;
  if (g) g->assign(n, 0.0);
  if (H) H->assign(n * n, 0.0);
  std::vector<double> z(K), p(K);
  double L = 0;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    const double* s = S.data() + i * K;
    double top = -HUGE_VAL;
    for (std::uint32_t k = 0; k < K; ++k) {
      z[k] = theta[k] * s[k] + (k > 0 ? theta[K + k - 1] : 0.0);
      top = std::max(top, z[k]);
    }
    double sum = 0;
    for (std::uint32_t k = 0; k < K; ++k) sum += (p[k] = std::exp(z[k] - top));
    for (std::uint32_t k = 0; k < K; ++k) p[k] /= sum;
    const double wi = W(w, i);
    L += wi * (top + std::log(sum) - z[cls[i]]);
    if (!g) continue;
    for (std::uint32_t k = 0; k < K; ++k) {
      const double r = wi * (p[k] - (k == cls[i] ? 1.0 : 0.0));
      (*g)[k] += r * s[k];
      if (k > 0) (*g)[K + k - 1] += r;
    }
    for (std::uint32_t k = 0; k < K; ++k)
      for (std::uint32_t j = 0; j < K; ++j) {  // H += h_kj u_k u_j^T, u_k = dz_k/dtheta
        const double h = wi * ((k == j ? p[k] : 0.0) - p[k] * p[j]);
        (*H)[k * n + j] += h * s[k] * s[j];
        if (j > 0) (*H)[k * n + K + j - 1] += h * s[k];
        if (k > 0) (*H)[(K + k - 1) * n + j] += h * s[j];
        if (k > 0 && j > 0) (*H)[(K + k - 1) * n + K + j - 1] += h;
      }
  }
  for (std::size_t q = 0; q < n; ++q) {
    const double d = theta[q] - theta0[q];
    L += 0.5 * mu * d * d;
    if (g) (*g)[q] += mu * d;
    if (H) (*H)[q * n + q] += mu;
  }
  return L;
}

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
  const std::vector<double> t = PlattTargets(y, w);
  double np = 0, nn = 0;
  for (std::size_t i = 0; i < y.size(); ++i) (y[i] ? np : nn) += W(w, i);
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
  return {static_cast<std::uint32_t>(format::CalibrationMethod::kPlatt), {A, B}};
}

Calibration FitPlattCubic(const std::vector<double>& s, const std::vector<std::uint8_t>& y,
                          const std::vector<double>& w) {
  const Calibration platt = FitPlatt(s, y, w);
  const std::vector<double> t = PlattTargets(y, w);
  double total = 0;
  for (std::size_t i = 0; i < y.size(); ++i) total += W(w, i);
  double abc[3] = {platt.params[0], platt.params[1], 0.0};
  double L = CubicLoss(s, t, w, abc);
  std::vector<double> H(9), g(3);
  for (int it = 0; it < 100; ++it) {
    std::fill(H.begin(), H.end(), 0.0);
    std::fill(g.begin(), g.end(), 0.0);
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double x[3] = {s[i], 1.0, s[i] * s[i] * s[i]};
      const double f = abc[0] * x[0] + abc[1] + abc[2] * x[2];
      const double p = f >= 0 ? std::exp(-f) / (1 + std::exp(-f)) : 1 / (1 + std::exp(f));
      const double wi = W(w, i), d2 = wi * p * (1 - p), d1 = wi * (t[i] - p);
      for (int a = 0; a < 3; ++a) {
        g[a] += x[a] * d1;
        for (int b = 0; b < 3; ++b) H[a * 3 + b] += x[a] * x[b] * d2;
      }
    }
    if (std::fabs(g[0]) < 1e-9 * total && std::fabs(g[1]) < 1e-9 * total && std::fabs(g[2]) < 1e-9 * total) break;
    for (int a = 0; a < 3; ++a) H[a * 3 + a] += 1e-12;  // Platt's small ridge
    std::vector<double> d = g;
    if (!SolveSpd(H, d, 3)) break;
    const double gd = -(g[0] * d[0] + g[1] * d[1] + g[2] * d[2]);  // direction -d
    double step = 1;
    while (step >= 1e-10) {
      const double n[3] = {abc[0] - step * d[0], abc[1] - step * d[1], abc[2] - step * d[2]};
      const double nL = CubicLoss(s, t, w, n);
      if (nL < L + 1e-4 * step * gd) {
        std::copy(n, n + 3, abc);
        L = nL;
        break;
      }
      step /= 2;
    }
    if (step < 1e-10) break;
  }
  if (!(abc[0] <= 0) || !(abc[2] <= 0)) return platt;  // not monotone (or not finite): Platt's
  return {static_cast<std::uint32_t>(format::CalibrationMethod::kPlattCubic), {abc[0], abc[1], abc[2]}};
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
  return {static_cast<std::uint32_t>(format::CalibrationMethod::kSoftmax), {A, 0.0}};
}

Calibration FitSoftmaxVector(const std::vector<double>& S, std::uint32_t K,
                             const std::vector<std::uint32_t>& cls, const std::vector<double>& w) {
  const Calibration temp = FitSoftmaxScale(S, K, cls, w);
  const std::size_t n = 2 * std::size_t{K} - 1;
  double total = 0;
  for (std::size_t i = 0; i < cls.size(); ++i) total += W(w, i);
  const double mu = 1e-6 * total;
  std::vector<double> theta0(n, 0.0);
  std::fill(theta0.begin(), theta0.begin() + K, temp.params[0]);
  std::vector<double> theta = theta0, g, H, trial(n);
  double L = VectorLoss(S, K, cls, w, theta, theta0, mu, &g, &H);
  for (int it = 0; it < 50; ++it) {
    std::vector<double> d = g;
    if (!SolveSpd(H, d, n)) break;
    double gd = 0;
    for (std::size_t q = 0; q < n; ++q) gd -= g[q] * d[q];  // direction -d
    if (-gd < 1e-12 * total) break;  // Newton decrement: at the optimum in doubles
    double step = 1, nL = L;
    while (step >= 1e-10) {
      for (std::size_t q = 0; q < n; ++q) trial[q] = theta[q] - step * d[q];
      nL = VectorLoss(S, K, cls, w, trial, theta0, mu, nullptr, nullptr);
      if (nL < L + 1e-4 * step * gd) break;
      step /= 2;
    }
    if (step < 1e-10) break;
    theta = trial;
    L = VectorLoss(S, K, cls, w, theta, theta0, mu, &g, &H);
  }
  Calibration c{static_cast<std::uint32_t>(format::CalibrationMethod::kSoftmaxVector), std::vector<double>(2 * K)};
  for (std::uint32_t k = 0; k < K; ++k) {
    if (!(theta[k] >= 0) || !std::isfinite(theta[k])) return temp;  // not monotone: the temperature's
    c.params[k] = theta[k];
    c.params[K + k] = k > 0 ? theta[K + k - 1] : 0.0;
  }
  return c;
}

void CalibratedProbabilities(const Calibration& c, const double* s, std::uint32_t K, double* p) {
  using M = format::CalibrationMethod;
  const auto m = static_cast<M>(c.method);
  if (m == M::kPlatt || m == M::kPlattCubic) {
    double f = c.params[0] * s[0] + c.params[1];
    if (m == M::kPlattCubic) f += c.params[2] * s[0] * s[0] * s[0];
    p[1] = f >= 0 ? std::exp(-f) / (1 + std::exp(-f)) : 1 / (1 + std::exp(f));
    p[0] = 1 - p[1];
    return;
  }
  double top = -HUGE_VAL, sum = 0;
  for (std::uint32_t k = 0; k < K; ++k) {
    p[k] = m == M::kSoftmax ? c.params[0] * s[k] : c.params[k] * s[k] + c.params[K + k];
    top = std::max(top, p[k]);
  }
  for (std::uint32_t k = 0; k < K; ++k) sum += (p[k] = std::exp(p[k] - top));
  for (std::uint32_t k = 0; k < K; ++k) p[k] /= sum;
}

double CalibratedLogLoss(const Calibration& c, const std::vector<double>& S, std::uint32_t K,
                         const std::vector<std::uint32_t>& cls, const std::vector<double>& w) {
  const bool binary = c.method == static_cast<std::uint32_t>(format::CalibrationMethod::kPlatt) ||
                      c.method == static_cast<std::uint32_t>(format::CalibrationMethod::kPlattCubic);
  const std::uint32_t outputs = binary ? 1 : K;
  std::vector<double> p(binary ? 2 : K);
  double L = 0, n = 0;
  for (std::size_t i = 0; i < cls.size(); ++i) {
    CalibratedProbabilities(c, S.data() + i * outputs, outputs, p.data());
    L -= W(w, i) * std::log(std::max(p[cls[i]], 1e-300));
    n += W(w, i);
  }
  return L / n;
}

}  // namespace rfk::host
