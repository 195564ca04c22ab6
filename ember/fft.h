#pragma once
// Spectral operations: torch::fft (ember/fft/fft.h), stft/istft and the
// window functions (top-level, ember::stft as LibTorch's torch::stft, torch::hann_window).
#include "ember/fft/fft.h"
#include "ember/fft/stft.h"
#include "ember/fft/window.h"
