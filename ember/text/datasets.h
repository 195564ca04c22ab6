#pragma once
// torchtext.datasets over files the user has: text classification CSVs and
// IMDB, GLUE tasks, SQuAD, IOB tagging, language modeling and Multi30k.
#include "ember/text/datasets/glue.h"
#include "ember/text/datasets/language_modeling.h"
#include "ember/text/datasets/question_answering.h"
#include "ember/text/datasets/sequence_tagging.h"
#include "ember/text/datasets/text_classification.h"
#include "ember/text/datasets/text_dataset.h"
