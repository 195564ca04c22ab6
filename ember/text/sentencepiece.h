#pragma once
// ember::text::sentencepiece — the sentencepiece library's processor.
#include "ember/text/sentencepiece/sentencepiece_processor.h"
