// OpenedModel: model bytes copied into aligned storage and opened by the device core.
#include "rfk/host/opened_model.hpp"

#include <algorithm>
#include <utility>

namespace rfk::host {

namespace {

std::string OpenErrorText(const std::string& source, Status status, const ModelError& error) {
  return source + ": " + StatusMessage(status) + " [" + StatusName(status) + "] at field '" + error.field +
         "', byte offset " + std::to_string(error.offset);
}

}  // namespace

ModelOpenError::ModelOpenError(const std::string& source, Status status, const ModelError& error)
    : std::runtime_error(OpenErrorText(source, status, error)), status_(status), error_(error) {}

OpenedModel::OpenedModel(AlignedBytes bytes, const std::string& source, bool throw_if_closed)
    : bytes_(std::move(bytes)) {
  status_ = OpenModel(bytes_.data(), bytes_.size(), &model_, &error_);
  if (status_ != Status::kOk && throw_if_closed) throw ModelOpenError(source, status_, error_);
}

OpenedModel::OpenedModel(const std::uint8_t* bytes, std::size_t size, const std::string& source)
    : OpenedModel(
          [&] {
            AlignedBytes copy(size);
            if (size != 0) std::copy(bytes, bytes + size, copy.data());
            return copy;
          }(),
          source, true) {}

OpenedModel OpenedModel::ReadFile(const std::string& path) { return OpenedModel(ReadFileBytes(path), path, true); }

OpenedModel OpenedModel::InspectFile(const std::string& path) { return OpenedModel(ReadFileBytes(path), path, false); }

}  // namespace rfk::host
