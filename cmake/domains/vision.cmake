# ember::vision (torchvision): image codecs from libjpeg-turbo, libpng and
# libwebp; video from FFmpeg; COCO annotations parsed with nlohmann-json, VOC
# annotations (XML) with expat; box label text rendered by FreeType.
find_package(JPEG REQUIRED)
find_package(PNG REQUIRED)
pkg_check_modules(EMBER_WEBP REQUIRED IMPORTED_TARGET libwebp libwebpdemux)
pkg_check_modules(EMBER_VISION_EXPAT REQUIRED IMPORTED_TARGET expat)
pkg_check_modules(EMBER_VISION_FFMPEG REQUIRED IMPORTED_TARGET libavformat libavcodec libavutil libswscale)
pkg_check_modules(EMBER_VISION_FREETYPE REQUIRED IMPORTED_TARGET freetype2)
ember_domain_library(vision PRIVATE_DEPS JPEG::JPEG PNG::PNG PkgConfig::EMBER_WEBP PkgConfig::EMBER_VISION_FFMPEG
                     PkgConfig::EMBER_VISION_EXPAT PkgConfig::EMBER_VISION_FREETYPE nlohmann_json::nlohmann_json)
