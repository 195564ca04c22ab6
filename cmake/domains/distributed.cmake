# ember::distributed (torch.distributed): collectives on Gloo over TCP.
find_package(Gloo CONFIG REQUIRED)
find_package(Threads REQUIRED)
ember_domain_library(distributed PRIVATE_DEPS gloo Threads::Threads)
