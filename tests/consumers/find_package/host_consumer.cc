// Consumer of the installed host library (rfk::host): draws a random Fourier map, serialises it
// and opens it with the core. Returns 0 if the model opens with the expected dimensions.
#include <cstdio>

#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"

int main() {
  namespace f = rfk::format;
  const rfk::host::ModelSpec spec =
      rfk::host::RandomFeatureSpec(f::Kernel::kGaussian, f::MapKind::kFourier, 64, 5, 0.5, 7);
  const std::vector<std::uint8_t> blob = rfk::host::SerializeModel(spec);
  rfk::host::AlignedBytes bytes(blob.size());
  std::copy(blob.begin(), blob.end(), bytes.data());
  rfk::Model m;
  if (rfk::OpenModel(bytes.data(), bytes.size(), &m) != rfk::Status::kOk) return 1;
  std::printf("host consumer ok: d = %u, D = %u\n", m.input_dim, m.num_features);
  return m.input_dim == 5 && m.num_features == 64 ? 0 : 1;
}
