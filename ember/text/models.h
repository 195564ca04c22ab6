#pragma once
// torchtext.models: RobertaEncoderConf, RobertaModel, RobertaClassificationHead,
// RobertaBundle and the XLM-R / RoBERTa bundles; and BERT (BertConfig, BertModel)
// with Hugging Face's module names, which torchtext lacks.
#include "ember/text/models/bert.h"
#include "ember/text/models/roberta_bundle.h"
#include "ember/text/models/roberta_encoder_conf.h"
#include "ember/text/models/roberta_model.h"
#include "ember/text/models/roberta_modules.h"
