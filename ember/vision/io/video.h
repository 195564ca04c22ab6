#pragma once
// torchvision.io.read_video / read_video_timestamps / write_video on FFmpeg (libavformat,
// libavcodec, libswscale), with the semantics of torchvision 0.14's default (PyAV) backend.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::io {

// The frames of the first video stream with start_pts <= pts <= end_pts (and, when start_pts
// falls between frames, the frame shown at start_pts), as [T, H, W, 3] uint8 RGB ("THWC") or
// [T, 3, H, W] ("TCHW"); the first audio stream's samples in the same interval, as PyAV gives
// them ([channels, samples] in the stream's sample dtype, float32 for AAC); and info with
// "video_fps" and "audio_fps" where the streams exist. pts_unit is "pts" (stream time-base
// units, the same numbers for both streams, as torchvision) or "sec".
std::tuple<Tensor, Tensor, std::map<std::string, double>> read_video(const std::string& filename, double start_pts = 0,
                                                                     std::optional<double> end_pts = std::nullopt,
                                                                     const std::string& pts_unit = "pts",
                                                                     const std::string& output_format = "THWC");

// Every video frame's timestamp, sorted (stream time-base units, or seconds for "sec"), and the
// stream's average frame rate.
std::tuple<std::vector<double>, std::optional<double>> read_video_timestamps(const std::string& filename,
                                                                             const std::string& pts_unit = "pts");

// Encodes video_array ([T, H, W, 3] uint8 RGB) at fps (rounded to an integer, as torchvision)
// with `video_codec` ("libx264", "mpeg4", "libvpx-vp9", "libx264rgb", ...; any encoder of
// Debian's FFmpeg) in the container named by the file's extension. options are the encoder's
// private options. audio_array ([channels, samples], float or integer) is encoded with
// audio_codec at audio_fps samples per second.
void write_video(const std::string& filename, const Tensor& video_array, double fps,
                 const std::string& video_codec = "libx264",
                 const std::optional<std::map<std::string, std::string>>& options = std::nullopt,
                 const std::optional<Tensor>& audio_array = std::nullopt,
                 std::optional<double> audio_fps = std::nullopt,
                 const std::optional<std::string>& audio_codec = std::nullopt,
                 const std::optional<std::map<std::string, std::string>>& audio_options = std::nullopt);

}  // namespace torch::vision::io
