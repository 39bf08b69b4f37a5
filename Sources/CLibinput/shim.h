#include <libinput.h>
/* Linux primitives for the event loop (poll, timerfd, eventfd, signalfd). */
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
