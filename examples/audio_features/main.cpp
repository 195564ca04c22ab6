// Reads a WAV file (argv[1], default: a small fixture), prints its metadata
// and writes its log-Mel spectrogram as a PNG picture (argv[2], default
// log_mel.png).
#include <exception>
#include <iostream>
#include <string>

#include "ember/audio/io/info.h"
#include "ember/audio/io/load.h"
#include "ember/vision/io/png.h"
#include "log_mel_image.h"

int main(int argc, char** argv) {
  const std::string input = argc > 1 ? argv[1] : EMBER_AUDIO_FEATURES_DEFAULT_WAV;
  const std::string output = argc > 2 ? argv[2] : "log_mel.png";
  try {
    std::cout << audio_features::describe(input, ember::audio::info(input)) << "\n";
    auto [waveform, sample_rate] = ember::audio::load(input);
    ember::Tensor image = audio_features::log_mel_image(waveform, sample_rate);
    ember::vision::io::write_png(image, output);
    std::cout << "wrote " << output << " (" << image.size(2) << " x " << image.size(1) << " pixels)\n";
  } catch (const std::exception& e) {
    std::cerr << "audio_features: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
