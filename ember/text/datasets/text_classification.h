#pragma once
// torchtext.datasets' text classification sets over the files the user has
// extracted (nothing is downloaded): each (root, split) reads what torchtext
// would read under root/datasets/<NAME>/ and yields (label, text) rows in its
// order. CSV rows are "label","field",...: the label as Python's int(), the
// remaining fields joined by " " (torchtext's _modify_res).
//   AG_NEWS                 <NAME>/{train,test}.csv                          labels 1..4
//   AmazonReviewFull        amazon_review_full_csv/{train,test}.csv          1..5
//   AmazonReviewPolarity    amazon_review_polarity_csv/{train,test}.csv      1..2
//   DBpedia                 dbpedia_csv/{train,test}.csv                     1..14
//   SogouNews               sogou_news_csv/{train,test}.csv                  1..5
//   YahooAnswers            yahoo_answers_csv/{train,test}.csv               1..10
//   YelpReviewFull          yelp_review_full_csv/{train,test}.csv            1..5
//   YelpReviewPolarity      yelp_review_polarity_csv/{train,test}.csv        1..2
//   IMDB                    aclImdb/{train,test}/{neg,pos}/*.txt             neg 1, pos 2
// (the last column relative to root/datasets/<NAME>/). Python's default split
// tuple is the overload without split, returning std::tuple. IMDB reads neg
// before pos, each folder's files in name order (torchtext follows the archive's
// member order and a set's iteration order); each non-blank line of a review
// file is a row, as torchtext's line grouping and re-reading make it.
#include <string>
#include <tuple>

#include "ember/text/datasets/text_dataset.h"

namespace torch::text::datasets {

#define EMBER_TEXT_CLASSIFICATION_DATASET(NAME)                             \
  LabelTextDataset NAME(const std::string& root, const std::string& split); \
  std::tuple<LabelTextDataset, LabelTextDataset> NAME(const std::string& root);

EMBER_TEXT_CLASSIFICATION_DATASET(AG_NEWS)
EMBER_TEXT_CLASSIFICATION_DATASET(AmazonReviewFull)
EMBER_TEXT_CLASSIFICATION_DATASET(AmazonReviewPolarity)
EMBER_TEXT_CLASSIFICATION_DATASET(DBpedia)
EMBER_TEXT_CLASSIFICATION_DATASET(SogouNews)
EMBER_TEXT_CLASSIFICATION_DATASET(YahooAnswers)
EMBER_TEXT_CLASSIFICATION_DATASET(YelpReviewFull)
EMBER_TEXT_CLASSIFICATION_DATASET(YelpReviewPolarity)
EMBER_TEXT_CLASSIFICATION_DATASET(IMDB)

#undef EMBER_TEXT_CLASSIFICATION_DATASET

}  // namespace torch::text::datasets
