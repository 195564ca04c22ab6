// An installed Ember's domain libraries through find_package(Ember COMPONENTS ...):
// one call into each, through its umbrella header.
#include <ember/audio.h>
#include <ember/distributed.h>
#include <ember/text.h>
#include <ember/torch.h>
#include <ember/vision.h>

#include <sstream>

int main() {
  auto image = torch::arange(48, torch::kUInt8).reshape({3, 4, 4});
  auto png = ember::vision::io::encode_png(image);
  if (!torch::equal(ember::vision::io::decode_png(png), image)) return 1;

  std::stringstream wav;
  ember::audio::save(wav, torch::zeros({1, 16}), 8000, true, std::nullopt, "wav");
  auto [waveform, rate] = ember::audio::load(wav, 0, -1, true, true, "wav");
  if (rate != 8000 || waveform.size(1) != 16) return 2;

  auto vocab = ember::text::vocab::build_vocab_from_iterator({{"a", "b", "a"}});
  if (vocab["a"] != 0) return 3;

  ember::distributed::HashStore store;
  store.set("k", "v");
  return store.get("k").size() == 1 ? 0 : 4;
}
