#pragma once
// torchvision.io in C++: image codecs (libjpeg-turbo, libpng, libwebp) and video (FFmpeg).
#include "ember/vision/io/image.h"
#include "ember/vision/io/video.h"
#include "ember/vision/io/video_reader.h"
