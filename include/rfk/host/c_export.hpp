// Model export as C source for firmware: the blob as an aligned `static const` byte array that the
// device reads in place from flash, plus, optionally, test vectors (inputs with the host's
// outputs, classes and bin keys) so the device can check its own predictions against the host's.
// Host-only: allocates and throws std::invalid_argument on a bad name or inconsistent vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rfk::host {

struct TestVectors {
  std::uint32_t count = 0;
  std::uint32_t input_dim = 0;       // d
  std::uint32_t num_outputs = 0;     // K
  std::uint32_t num_grids = 0;       // P (0: no keys)
  std::vector<float> inputs;         // count x d
  std::vector<float> outputs;        // count x K, computed by the scalar reference kernels
  std::vector<std::uint32_t> classes;  // count (classification models), else empty
  std::vector<std::uint64_t> keys;   // count x P bin keys
};

// C99 header text defining, for name "kws" (a C identifier):
//   static const uint8_t kws[KWS_BYTES] (16-byte aligned), KWS_BYTES, KWS_INPUT_DIM, KWS_OUTPUTS,
//   KWS_SCRATCH_BYTES, KWS_BATCH_SCRATCH_BYTES, and with vectors KWS_VECTORS, kws_inputs,
//   kws_outputs, kws_classes (if any), kws_keys (if P > 0); floats as exact hex literals.
// `model` must be a blob that rfk::OpenModel accepts; `comment` lands in the header's preamble.
std::string ModelCHeader(const std::uint8_t* model, std::size_t size, const std::string& name,
                         const TestVectors* vectors, const std::string& comment);

}  // namespace rfk::host
