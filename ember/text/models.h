#pragma once
// torchtext.models: RobertaEncoderConf, RobertaModel, RobertaClassificationHead,
// RobertaBundle and the XLM-R / RoBERTa bundles.
#include "ember/text/models/roberta_bundle.h"
#include "ember/text/models/roberta_encoder_conf.h"
#include "ember/text/models/roberta_model.h"
#include "ember/text/models/roberta_modules.h"
