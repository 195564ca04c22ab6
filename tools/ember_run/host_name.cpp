#include "host_name.h"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace ember_run {

// Python's socket.getfqdn: the host name's address, looked up in reverse; the
// first of its names that contains a dot, else its canonical name.
std::string fq_hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "127.0.0.1";
  addrinfo* res = nullptr;
  if (::getaddrinfo(name, nullptr, nullptr, &res) != 0 || !res) return "127.0.0.1";  // workers could not resolve it
  const void* addr = nullptr;
  socklen_t len = 0;
  if (res->ai_family == AF_INET) {
    addr = &reinterpret_cast<const sockaddr_in*>(res->ai_addr)->sin_addr;
    len = sizeof(in_addr);
  } else if (res->ai_family == AF_INET6) {
    addr = &reinterpret_cast<const sockaddr_in6*>(res->ai_addr)->sin6_addr;
    len = sizeof(in6_addr);
  }
  std::string fqdn = name;
  hostent entry{}, *found = nullptr;
  std::vector<char> buf(16384);
  int herr = 0;
  if (addr && ::gethostbyaddr_r(addr, len, res->ai_family, &entry, buf.data(), buf.size(), &found, &herr) == 0 &&
      found && found->h_name) {
    fqdn = found->h_name;
    if (fqdn.find('.') == std::string::npos)
      for (char** alias = found->h_aliases; alias && *alias; ++alias)
        if (std::strchr(*alias, '.')) {
          fqdn = *alias;
          break;
        }
  }
  ::freeaddrinfo(res);
  return fqdn;
}

}  // namespace ember_run
