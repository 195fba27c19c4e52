/// @file
/// Host-only: model bytes held and opened. The one type through which host code -- training,
/// conversion, export, the CLI and Python -- opens model bytes (rfk::OpenModel).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rfk/host/model_writer.hpp"
#include "rfk/model.hpp"

namespace rfk::host {

/// Bytes that do not open as a model: what() is "SOURCE: MESSAGE [STATUS] at field 'F', byte
/// offset N"; the parts are kept for callers that word it their own way.
class ModelOpenError : public std::runtime_error {
 public:
  /// The error for `source` (a path, "model"), with OpenModel's status and error.
  ModelOpenError(const std::string& source, Status status, const ModelError& error);
  Status status() const { return status_; }                ///< what OpenModel returned
  const ModelError& error() const { return error_; }       ///< the field and its byte offset

 private:
  Status status_;
  ModelError error_;
};

/// A model's bytes in aligned storage this object owns (format::kAlignment, as OpenModel requires),
/// opened in place by the device core. model() points into those bytes: valid as long as the
/// object, moves included (the storage moves with it); not copyable. Costs one copy of the bytes.
class OpenedModel {
 public:
  /// Copies `size` bytes and opens them; ModelOpenError naming `source` (a path, "model") when they
  /// do not open.
  OpenedModel(const std::uint8_t* bytes, std::size_t size, const std::string& source = "model");
  /// As the pointer form, for a vector's bytes.
  explicit OpenedModel(const std::vector<std::uint8_t>& bytes, const std::string& source = "model")
      : OpenedModel(bytes.data(), bytes.size(), source) {}
  /// Reads a file and opens it: IoError for the file, ModelOpenError (naming the path) for its bytes.
  static OpenedModel ReadFile(const std::string& path);
  /// As ReadFile, but bytes that do not open are kept with their status instead of thrown (rfk
  /// inspect reports on them); model() is then not to be used.
  static OpenedModel InspectFile(const std::string& path);

  OpenedModel(OpenedModel&&) = default;             ///< the bytes move, model() stays valid
  OpenedModel& operator=(OpenedModel&&) = default;  ///< the bytes move, model() stays valid
  OpenedModel(const OpenedModel&) = delete;
  OpenedModel& operator=(const OpenedModel&) = delete;

  const Model& model() const { return model_; }        ///< the opened model
  const Model* operator->() const { return &model_; }  ///< the opened model's fields
  Status status() const { return status_; }            ///< kOk, or (InspectFile) why the bytes do not open
  const ModelError& error() const { return error_; }   ///< where they do not open
  /// The bytes as held (all of them, also past the model's total_bytes).
  const std::uint8_t* data() const { return bytes_.data(); }
  std::size_t size() const { return bytes_.size(); }  ///< the number of bytes held
  /// The model's own bytes (total_bytes of them) as a new vector.
  std::vector<std::uint8_t> Bytes() const { return {data(), data() + model_.total_bytes}; }

 private:
  OpenedModel(AlignedBytes bytes, const std::string& source, bool throw_if_closed);

  AlignedBytes bytes_;
  Model model_;
  ModelError error_;
  Status status_ = Status::kOk;
};

}  // namespace rfk::host
