#pragma once
// ember::distributed — torch.distributed in C++ (libember_distributed, target
// Ember::distributed): stores, process groups on Gloo, the collectives, and
// nn::parallel::DistributedDataParallel with its communication hooks.
#include "ember/distributed/algorithms/join.h"
#include "ember/distributed/ddp/comm_hooks.h"
#include "ember/distributed/ddp/distributed_data_parallel.h"
#include "ember/distributed/ddp/powerSGD_hook.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/object.h"
#include "ember/distributed/object_collectives.h"
#include "ember/distributed/optim/zero_redundancy_optimizer.h"
#include "ember/distributed/process_group.h"
#include "ember/distributed/rpc/api.h"
#include "ember/distributed/rpc/dist_autograd.h"
#include "ember/distributed/rpc/distributed_optimizer.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/store/file_store.h"
#include "ember/distributed/store/hash_store.h"
#include "ember/distributed/store/prefix_store.h"
#include "ember/distributed/store/store.h"
#include "ember/distributed/store/tcp_store.h"
#include "ember/distributed/types.h"
#include "ember/distributed/work.h"
