// rfk._rfk: the pybind11 extension under the `rfk` package (targets/python/rfk). Training goes
// through rfk::host::Train exactly as `rfk train` does; prediction through the device core's
// Predict (and Probabilities, for a calibrated classifier) on the model bytes as stored, so
// Python, the CLI and firmware compute the same floats from the same file.
//
// Copies: training always copies the inputs once into rfk::host::Dataset (it owns its float
// rows; float64 or strided input is converted in that same pass). Prediction reads float32
// C-contiguous input in place; any other dtype or layout is converted block by block (4096 rows)
// into a float32 buffer. The GIL is released for the whole of training and prediction.
// Errors: rfk's TrainError, DataError, QuantizeError and ModelOpenError (bytes that do not open) raise
// ValueError with rfk's message; IoError raises OSError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "rfk/format.hpp"
#include "rfk/host/c_export.hpp"
#include "rfk/host/convert.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/opened_model.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/settings.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"

namespace py = pybind11;

namespace {

using rfk::host::Dataset;

// The rows of a 2-D float32/float64 array, any strides, copied into data->dense as float.
void CopyDense(const py::array& X, Dataset* data) {
  if (X.ndim() != 2) throw std::invalid_argument("X must be a 2-D array");
  const auto n = static_cast<std::size_t>(X.shape(0)), d = static_cast<std::size_t>(X.shape(1));
  data->rows = n;
  data->cols = d;
  data->dense.resize(n * d);
  const auto* base = static_cast<const char*>(X.data());
  const py::ssize_t s0 = X.strides(0), s1 = X.strides(1);
  float* out = data->dense.data();
  if (py::isinstance<py::array_t<float>>(X)) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j)
        out[i * d + j] = *reinterpret_cast<const float*>(base + py::ssize_t(i) * s0 + py::ssize_t(j) * s1);
  } else if (py::isinstance<py::array_t<double>>(X)) {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j)
        out[i * d + j] =
            static_cast<float>(*reinterpret_cast<const double*>(base + py::ssize_t(i) * s0 + py::ssize_t(j) * s1));
  } else {
    throw std::invalid_argument("X must hold float32 or float64 values");
  }
}

// CSR parts (indptr, indices, data as SciPy stores them) into data's sparse representation.
void CopyCsr(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& indptr,
             const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& indices,
             const py::array_t<float, py::array::c_style | py::array::forcecast>& values, std::size_t rows,
             std::size_t cols, Dataset* data) {
  if (static_cast<std::size_t>(indptr.size()) != rows + 1) throw std::invalid_argument("CSR indptr has the wrong length");
  data->rows = rows;
  data->cols = cols;
  data->sparse = true;
  const std::int64_t* p = indptr.data();
  const std::int64_t* ix = indices.data();
  const float* v = values.data();
  const auto nnz = static_cast<std::int64_t>(indices.size());
  if (p[0] != 0 || p[rows] != nnz || values.size() != indices.size())
    throw std::invalid_argument("CSR indptr, indices and data disagree");
  data->row_ptr.assign(p, p + rows + 1);
  data->col_idx.resize(static_cast<std::size_t>(nnz));
  data->values.assign(v, v + nnz);
  for (std::size_t r = 0; r < rows; ++r) {
    if (p[r + 1] < p[r]) throw std::invalid_argument("CSR indptr decreases at row " + std::to_string(r + 1));
    for (std::int64_t k = p[r]; k < p[r + 1]; ++k) {
      if (ix[k] < 0 || static_cast<std::size_t>(ix[k]) >= cols || (k > p[r] && ix[k] <= ix[k - 1]))
        throw std::invalid_argument("CSR row " + std::to_string(r + 1) +
                                    ": column indices must be sorted, unique and below n_features");
      data->col_idx[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(ix[k]);
    }
  }
}

// A core status as this module's messages print it: "message [name]".
std::string StatusText(rfk::Status s) {
  return std::string(rfk::StatusMessage(s)) + " [" + rfk::StatusName(s) + "]";
}

// The options as `rfk train` reads them (host::ParseTrainSettings, the one parser): the estimators
// pass the parameters' values in `o` as words or numbers, and errors name the parameters.
rfk::host::TrainOptions Options(const py::dict& o) {
  rfk::host::TrainSettings s;
  s.map = o["map"].cast<std::string>();
  s.kernel = o["kernel"].cast<std::string>();
  s.grids = o["grids"].cast<std::uint32_t>();
  s.buckets = o["bins_per_grid"].cast<std::uint32_t>();
  s.bin_gamma = o["bin_gamma"].cast<std::string>();
  s.features = o["n_features"].cast<std::string>();
  s.max_model_bytes = o["max_model_bytes"].cast<std::string>();
  s.seed = std::to_string(o["seed"].cast<std::uint64_t>());
  s.threads = o["threads"].cast<unsigned>();
  s.folds = o["folds"].cast<std::uint32_t>();
  s.memory_limit = o["memory_limit"].cast<std::string>();
  s.standardize = o["standardize"].cast<int>();
  s.gamma = o["gamma"].cast<std::string>();
  s.lambda = o["lambda"].cast<std::string>();
  s.task = o["classification"].cast<bool>() ? "classification" : "regression";
  s.class_weight = o["class_weight"].cast<std::string>();
  s.calibrate = o["calibrate"].cast<bool>();
  s.metadata = o["metadata"].cast<bool>();  // --no-metadata: false
  s.storage = o["storage"].cast<std::string>();  // as `rfk train --storage`: quantization-aware
  s.head_storage = o["head_storage"].cast<std::string>();
  rfk::host::TrainOptions opt = rfk::host::ParseTrainSettings(s, rfk::host::Spelling::kPython);
  if (!o["sample_weight"].is_none()) opt.sample_weight = o["sample_weight"].cast<std::vector<double>>();
  return opt;
}

// Trains as `rfk train` does with the matching options; returns (the model file's bytes, why it
// has no calibration: TrainReport::calibration_reason, "" when it has one or is a regression).
py::tuple Train(const py::object& X, const py::object& csr, std::size_t csr_rows, std::size_t csr_cols,
                std::vector<std::string> labels, const py::dict& o) {
  Dataset data;
  data.source = "X";
  if (csr.is_none()) {
    CopyDense(X.cast<py::array>(), &data);
  } else {
    const auto parts = csr.cast<py::tuple>();
    CopyCsr(parts[0].cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>(),
            parts[1].cast<py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>>(),
            parts[2].cast<py::array_t<float, py::array::c_style | py::array::forcecast>>(), csr_rows, csr_cols, &data);
  }
  if (labels.size() != data.rows) throw std::invalid_argument("y must have one value per row of X");
  data.labels = std::move(labels);
  data.lines.resize(data.rows);
  for (std::size_t i = 0; i < data.rows; ++i) data.lines[i] = i + 1;  // messages name "X:ROW", 1-based
  // A DataFrame's column names (feature_names_in_) and y's name: stored as `rfk train` stores a
  // CSV header's, so the CLI matches a file's columns to them by name.
  if (!o["feature_names"].is_none()) {
    data.feature_names = o["feature_names"].cast<std::vector<std::string>>();
    if (data.feature_names.size() != data.cols) throw std::invalid_argument("one feature name per column of X");
    data.label_name = o["target_name"].cast<std::string>();
  }

  const rfk::host::TrainOptions opt = Options(o);

  std::vector<std::uint8_t> blob;
  std::string calibration_reason;
  {
    py::gil_scoped_release release;
    rfk::host::TrainResult result = rfk::host::Train(data, opt);
    blob = std::move(result.model);
    calibration_reason = std::move(result.report.calibration_reason);
  }
  return py::make_tuple(py::bytes(reinterpret_cast<const char*>(blob.data()), blob.size()), calibration_reason);
}

// A model blob held in aligned storage, opened by the device core (host::OpenedModel: bytes that
// do not open raise ValueError naming the field and byte offset).
class PyModel {
 public:
  explicit PyModel(const py::bytes& b) : opened_(Open(b)), m_(opened_.model()) {}
  py::bytes Bytes() const { return py::bytes(reinterpret_cast<const char*>(opened_.data()), m_.total_bytes); }

  // The K raw outputs of every row of X (n x d): float32 C-contiguous X is read in place. Row by
  // row through rfk::Predict, as `rfk predict` and firmware compute them (PredictBatch's blocked
  // kernels agree only to ~1e-5), so the outputs are bit-identical to theirs.
  py::array_t<float> Decision(const py::array& X) const {
    if (X.ndim() != 2) throw std::invalid_argument("X must be a 2-D array");
    const auto n = static_cast<std::size_t>(X.shape(0)), d = static_cast<std::size_t>(X.shape(1));
    if (d != m_.input_dim)
      throw std::invalid_argument("X has " + std::to_string(d) + " features but the model expects " +
                                  std::to_string(m_.input_dim));
    const std::size_t K = m_.num_outputs;
    py::array_t<float> out({n, K});
    float* o = out.mutable_data();
    const bool in_place = py::isinstance<py::array_t<float>>(X) && (X.flags() & py::array::c_style);
    const bool is_f64 = py::isinstance<py::array_t<double>>(X);
    if (!in_place && !is_f64 && !py::isinstance<py::array_t<float>>(X))
      throw std::invalid_argument("X must hold float32 or float64 values");
    const auto* base = static_cast<const char*>(X.data());
    const py::ssize_t s0 = X.strides(0), s1 = X.strides(1);
    std::string error;
    {
      py::gil_scoped_release release;
      const std::size_t sb = rfk::ScratchBytes(m_);
      rfk::host::AlignedBytes scratch(sb);
      const std::size_t chunk = 4096;
      std::vector<float> buf(in_place ? 0 : std::min(n, chunk) * d);
      for (std::size_t r0 = 0; r0 < n && error.empty(); r0 += chunk) {
        const std::size_t rn = std::min(chunk, n - r0);
        const float* rows = nullptr;
        if (in_place) {
          rows = reinterpret_cast<const float*>(base) + r0 * d;
        } else {
          for (std::size_t i = 0; i < rn; ++i)
            for (std::size_t j = 0; j < d; ++j) {
              const char* p = base + py::ssize_t(r0 + i) * s0 + py::ssize_t(j) * s1;
              buf[i * d + j] = is_f64 ? static_cast<float>(*reinterpret_cast<const double*>(p))
                                      : *reinterpret_cast<const float*>(p);
            }
          rows = buf.data();
        }
        for (std::size_t i = 0; i < rn; ++i) {
          const rfk::Status s = rfk::Predict(m_, rows + i * d, d, scratch.data(), sb, o + (r0 + i) * K, K);
          if (s != rfk::Status::kOk) {
            error = "X row " + std::to_string(r0 + i + 1) + ": prediction failed: " + StatusText(s);
            break;
          }
        }
      }
    }
    if (!error.empty()) throw std::invalid_argument(error);
    return out;
  }

  // Class probabilities (n x num_classes, columns in the model's label order) for every row of X:
  // Decision's outputs, then rfk::Probabilities through the model's calibration section, as
  // `rfk predict --proba` and firmware compute them. std::invalid_argument (ValueError) for a model
  // without the section, whatever n.
  py::array_t<float> Proba(const py::array& X) const {
    if (m_.calibration_method == 0)
      throw std::invalid_argument("model: " + StatusText(rfk::Status::kNoCalibration));
    const py::array_t<float> raw = Decision(X);
    const auto n = static_cast<std::size_t>(raw.shape(0));
    const std::size_t K = m_.num_outputs, C = m_.num_classes;
    py::array_t<float> out({n, C});
    const float* s = raw.data();
    float* p = out.mutable_data();
    std::string error;
    {
      py::gil_scoped_release release;
      for (std::size_t i = 0; i < n; ++i) {
        const rfk::Status st = rfk::Probabilities(m_, s + i * K, K, p + i * C, C);
        if (st != rfk::Status::kOk) {
          error = "X row " + std::to_string(i + 1) + ": probabilities failed: " + StatusText(st);
          break;
        }
      }
    }
    if (!error.empty()) throw std::invalid_argument(error);
    return out;
  }

  // The class index (the model's label order) each row of raw outputs (n x K float32, as Decision
  // returns them) decides: rfk::DecideClass (with a calibration section, the most probable class),
  // or rfk::DecideClassRaw when `raw`.
  py::array_t<std::uint32_t> Decide(const py::array_t<float, py::array::c_style | py::array::forcecast>& outputs,
                                    bool raw) const {
    const std::size_t K = m_.num_outputs;
    if (outputs.ndim() != 2 || static_cast<std::size_t>(outputs.shape(1)) != K)
      throw std::invalid_argument("outputs must be n x " + std::to_string(K));
    const auto n = static_cast<std::size_t>(outputs.shape(0));
    py::array_t<std::uint32_t> out(n);
    const float* s = outputs.data();
    std::uint32_t* c = out.mutable_data();
    for (std::size_t i = 0; i < n; ++i) c[i] = raw ? rfk::DecideClassRaw(m_, s + i * K) : rfk::DecideClass(m_, s + i * K);
    return out;
  }

  // The calibration's method name (format::CalibrationMethod), None without the section.
  py::object CalibrationMethod() const {
    if (m_.calibration_method == 0) return py::none();
    return py::str(rfk::format::NameOf(static_cast<rfk::format::CalibrationMethod>(m_.calibration_method)));
  }
  // Its f32 parameters as stored (docs/FORMAT.md): platt A, B; softmax-temperature A, 0;
  // platt-cubic A, B, C; softmax-vector a[K] then b[K]. Empty without the section.
  std::vector<float> CalibrationParams() const {
    if (m_.calibration_method == 0) return {};
    const std::uint64_t bytes = rfk::format::calibration::Bytes(m_.calibration_method, m_.num_outputs);
    std::vector<float> v(static_cast<std::size_t>((bytes - 8) / 4));
    std::memcpy(v.data(), m_.calibration_params, v.size() * sizeof(float));  // LE f32, as the host's
    return v;
  }

  // z(x) for every row (n x num_features), through the core's ComputeFeatures.
  py::array_t<float> Features(const py::array_t<float, py::array::c_style | py::array::forcecast>& X) const {
    if (X.ndim() != 2 || static_cast<std::size_t>(X.shape(1)) != m_.input_dim)
      throw std::invalid_argument("X must be 2-D with " + std::to_string(m_.input_dim) + " features");
    const auto n = static_cast<std::size_t>(X.shape(0)), d = std::size_t{m_.input_dim}, D = std::size_t{m_.num_features};
    py::array_t<float> out({n, D});
    float* z = out.mutable_data();
    const float* x = X.data();
    std::string error;
    {
      py::gil_scoped_release release;
      const std::size_t sb = rfk::ScratchBytes(m_);
      rfk::host::AlignedBytes scratch(sb);
      for (std::size_t i = 0; i < n && error.empty(); ++i) {
        const rfk::Status s = rfk::ComputeFeatures(m_, x + i * d, d, scratch.data(), sb, z + i * D, D);
        if (s != rfk::Status::kOk)
          error = "X row " + std::to_string(i + 1) + ": " + StatusText(s);
      }
    }
    if (!error.empty()) throw std::invalid_argument(error);
    return out;
  }

  std::vector<std::string> Labels() const {
    std::vector<std::string> l;
    for (std::uint32_t c = 0; c < m_.num_classes; ++c) l.emplace_back(rfk::ClassLabel(m_, c));
    return l;
  }
  // The model as a header-only C file for firmware (`rfk export`'s header-only mode, no test
  // vectors); std::invalid_argument (ValueError) for a name C cannot use.
  // `pinned`: for a core pinned to this model (CoreConfig), which refers to the array by name.
  std::string CHeader(const std::string& name, bool pinned) const {
    return rfk::host::ModelCSource(m_, name, nullptr, "exported by rfk's Python package", "", pinned)
        .header;
  }
  // `rfk export`'s two-file mode: (header of declarations, source defining the arrays), the source
  // including the header as `header_include`.
  py::tuple CSource(const std::string& name, const std::string& header_include) const {
    if (header_include.empty()) throw std::invalid_argument("header_include must name the header file");
    const rfk::host::CExport c = rfk::host::ModelCSource(m_, name, nullptr, "exported by rfk's Python package",
                                                         header_include);
    return py::make_tuple(c.header, c.source);
  }
  // `rfk export --config-header`: the core configuration this model needs (core_config.h's switches),
  // pinned to the array `pin_array` exports unless that is empty.
  std::string CoreConfig(const std::string& pin_array) const {
    return rfk::host::CoreConfigHeader(m_, "exported by rfk's Python package", pin_array);
  }
  std::string Task() const { return rfk::host::TaskName(m_.task); }
  std::string Metadata() const { return std::string(m_.metadata ? m_.metadata : "", m_.metadata_bytes); }
  const rfk::Model& model() const { return m_; }

 private:
  static rfk::host::OpenedModel Open(const py::bytes& b) {
    const std::string_view v = b;
    return rfk::host::OpenedModel(reinterpret_cast<const std::uint8_t*>(v.data()), v.size(), "model");
  }

  rfk::host::OpenedModel opened_;
  const rfk::Model& m_;  // opened_'s model
};

// `rfk convert` through the same code (host::ConvertModel: its checks, refits and messages, with
// the parameters' names): `o` holds convert's settings, X the calibration rows (None: none).
// Returns (the converted model's bytes, [(is_warning, text), ...] in the order made).
py::tuple Convert(const PyModel& source, const py::dict& o, const py::object& X) {
  rfk::host::ConvertSettings s;
  s.storage = o["storage"].cast<std::string>();
  s.head_storage = o["head_storage"].cast<std::string>();
  s.fixed = o["fixed"].cast<bool>();
  s.fixed_only = o["fixed_only"].cast<bool>();
  s.metadata = o["metadata"].cast<bool>();
  s.refit = o["refit"].cast<bool>();
  s.memory_limit = o["memory_limit"].cast<std::string>();
  s.threads = o["threads"].cast<unsigned>();
  s.calibrate = !X.is_none();
  const rfk::Model& m = source.model();
  rfk::host::CheckConvert(m, s, rfk::host::Spelling::kPython, "model");
  Dataset rows;
  rows.source = "X";
  if (s.calibrate) {
    CopyDense(X.cast<py::array>(), &rows);
    if (rows.cols != m.input_dim)
      throw std::invalid_argument("X has " + std::to_string(rows.cols) + " features but the model expects " +
                                  std::to_string(m.input_dim));
    rows.lines.resize(rows.rows);
    for (std::size_t i = 0; i < rows.rows; ++i) rows.lines[i] = i + 1;  // messages name "X:ROW", 1-based
  }
  rfk::host::ConvertResult r;
  {
    py::gil_scoped_release release;
    r = rfk::host::ConvertModel(m, s, s.calibrate ? &rows : nullptr, rfk::host::Spelling::kPython, "model", "X");
  }
  py::list messages;
  for (const rfk::host::ConvertMessage& msg : r.messages) messages.append(py::make_tuple(msg.warning, msg.text));
  return py::make_tuple(py::bytes(reinterpret_cast<const char*>(r.model.data()), r.model.size()), messages);
}

py::bytes FeatureSpec(const std::string& kernel, const std::string& map, std::uint32_t features,
                      std::uint32_t input_dim, double gamma, std::uint64_t seed) {
  const rfk::host::ModelSpec spec = rfk::host::RandomFeatureSpec(rfk::host::ParseKernel(kernel),
                                                                 rfk::host::ParseMap(map), features, input_dim, gamma, seed);
  const std::vector<std::uint8_t> blob = rfk::host::SerializeModel(spec);
  return py::bytes(reinterpret_cast<const char*>(blob.data()), blob.size());
}

}  // namespace

PYBIND11_MODULE(_rfk, m) {
  m.doc() = "rfk's bindings: training (rfk::host::Train) and the device core's prediction";
  m.attr("__version__") = RFK_VERSION;  // project(rfk VERSION ...), the one place it is written
  // On a CPU this OpenBLAS does not know, its generic kernels train 2-3x slower; a Python process
  // cannot restart itself with OPENBLAS_CORETYPE set as `rfk train` does, so the kernels are
  // switched in place, once, at import (docs/PYTHON.md). "" where nothing was switched.
  m.attr("blas_core_switched") = rfk::host::UseBetterBlasCore();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const py::cast_error& e) {  // an option out of its C++ type's range (grids=-1)
      PyErr_SetString(PyExc_ValueError, (std::string("a parameter has a value out of range or of the wrong type: ") +
                                         e.what()).c_str());
    } catch (const rfk::host::IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const rfk::host::TrainError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const rfk::host::DataError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const rfk::host::QuantizeError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const rfk::host::ModelOpenError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("train", &Train, py::arg("X"), py::arg("csr"), py::arg("csr_rows"), py::arg("csr_cols"), py::arg("labels"),
        py::arg("options"));
  m.def("feature_spec", &FeatureSpec);
  m.def("convert", &Convert, py::arg("model"), py::arg("options"), py::arg("X"));
  m.def("blas_advice", [] { return rfk::host::BetterBlasCore(); });
  m.def("map_names", [] { return rfk::host::FourierMapNames(); });
  m.def("storage_names", [] { return rfk::host::StorageNames(); });
  m.def("write_file_atomic", [](const std::string& path, const py::bytes& b) {
    const std::string_view v = b;
    rfk::host::WriteFileAtomic(path, std::vector<std::uint8_t>(v.begin(), v.end()));
  });
  m.def("read_file", [](const std::string& path) {
    const rfk::host::AlignedBytes b = rfk::host::ReadFileBytes(path);
    return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
  });
  py::class_<PyModel>(m, "Model")
      .def(py::init<const py::bytes&>())
      .def("to_bytes", &PyModel::Bytes)
      .def("decision", &PyModel::Decision)
      .def("proba", &PyModel::Proba)
      .def("decide", &PyModel::Decide, py::arg("outputs"), py::arg("raw") = false)
      .def("features", &PyModel::Features)
      .def("c_header", &PyModel::CHeader, py::arg("name"), py::arg("pinned") = false)
      .def("c_source", &PyModel::CSource)
      .def("core_config", &PyModel::CoreConfig, py::arg("pin_array") = "")
      .def_property_readonly("labels", &PyModel::Labels)
      .def_property_readonly("task", &PyModel::Task)
      .def_property_readonly("metadata", &PyModel::Metadata)
      .def_property_readonly("calibration_method", &PyModel::CalibrationMethod)
      .def_property_readonly("calibration_params", &PyModel::CalibrationParams)
      .def_property_readonly("input_dim", [](const PyModel& p) { return p.model().input_dim; })
      .def_property_readonly("num_features", [](const PyModel& p) { return p.model().num_features; })
      .def_property_readonly("num_outputs", [](const PyModel& p) { return p.model().num_outputs; })
      .def_property_readonly("gamma", [](const PyModel& p) { return p.model().gamma; });
}
