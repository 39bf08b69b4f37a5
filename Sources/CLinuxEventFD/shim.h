/* The Linux primitives of the live loop (GestureInput): poll, timerfd, eventfd, signalfd.
   The C library's own headers, which Glibc's Swift module does not cover; no library is linked. */
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
