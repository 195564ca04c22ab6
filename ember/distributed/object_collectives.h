#pragma once
// The *_object collectives of torch.distributed (all_gather_object,
// broadcast_object_list, gather_object, scatter_object_list) over Object
// (object.h) instead of pickle: sizes travel first, then the encoded bytes,
// padded to the largest. src/dst are global ranks, as in Python.
#include <vector>

#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/object.h"

namespace torch::distributed {

// object_list: sized to the group (an empty one is resized); element i gets rank i's obj.
void all_gather_object(std::vector<Object>& object_list, const Object& obj, const ProcessGroupPtr& group = nullptr);
// Every rank's object_list (of the same length as src's) gets src's objects.
void broadcast_object_list(std::vector<Object>& object_list, int64_t src = 0, const ProcessGroupPtr& group = nullptr);
// On dst, object_gather_list (sized to the group or empty; required there) gets every rank's obj.
void gather_object(const Object& obj, std::vector<Object>* object_gather_list = nullptr, int64_t dst = 0,
                   const ProcessGroupPtr& group = nullptr);
// src's scatter_object_input_list[i] goes to group rank i's scatter_object_output_list[0].
void scatter_object_list(std::vector<Object>& scatter_object_output_list,
                         const std::vector<Object>& scatter_object_input_list = {}, int64_t src = 0,
                         const ProcessGroupPtr& group = nullptr);

}  // namespace torch::distributed
