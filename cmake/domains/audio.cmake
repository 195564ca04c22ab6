# ember::audio (torchaudio): audio files through libsndfile; compressed
# formats libsndfile lacks (m4a, aac, ...) and StreamReader/Writer through FFmpeg (libswscale for video;
# libavfilter runs StreamReader's filter graphs).
pkg_check_modules(EMBER_SNDFILE REQUIRED IMPORTED_TARGET sndfile)
pkg_check_modules(EMBER_AUDIO_FFMPEG REQUIRED IMPORTED_TARGET libavformat libavcodec libavfilter libavutil libswresample libswscale)
ember_domain_library(audio PRIVATE_DEPS PkgConfig::EMBER_SNDFILE PkgConfig::EMBER_AUDIO_FFMPEG)
