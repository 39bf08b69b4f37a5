/*
 * GestureKit's LD_PRELOAD fixes for umockdev 0.17.16, so that real libinput can run on a
 * replayed evdev recording (see LIBINPUT-WITHOUT-HARDWARE.md). Load it in FRONT of
 * umockdev's libumockdev-preload.so.0, in the process under test only; every wrapper calls
 * the next definition (umockdev's, then libc's) and only adjusts the result.
 *
 *  1. udev database: libudev reads /run/udev/data/c<maj>:<min> on the host. Paths under
 *     /run/udev/data/ are redirected into $UMOCKDEV_DIR/run/udev/data/; for a character
 *     device that exists in the testbed the entry is created with "I:1" (initialized), so
 *     libinput does not wait for, and then reject, an uninitialized device.
 *  2. fstat(): a scripted node is a pseudo-terminal; map its st_rdev back to the emulated
 *     device number recorded in $UMOCKDEV_DIR/dev/.ptymap/_dev_pts_<n>.
 *  3. read() from an emulated evdev node (a pty mapped to major 13): rewrite every
 *     struct input_event's timestamp onto CLOCK_MONOTONIC. The offset is taken at the first
 *     frame and kept (so recorded frame spacing is preserved exactly); it is re-based at a
 *     frame start when the mapped time would lag more than 8 ms behind now or lie more
 *     than 5 ms in the future; a lag over 2 ms (umockdev's replay drifts late by ~0.2 ms
 *     a frame) is followed smoothly, a quarter of it per frame. "Now" is the time the frame
 *     was sent (the time umockdev-run was due to write it, 12.), where the write log (11.)
 *     has it: a reader that reads late (busy, or starved on a loaded machine) gets the
 *     stamps a kernel would have given, the times the frames were sent. Without the log,
 *     it is the time of the read.
 *  4. read() returning a partial struct input_event: the rest is read before returning.
 *  5. realpath() of a path under /dev or /sys resolves inside the testbed: a mocked node
 *     (a symlink to its pseudo-terminal) is its own canonical path; sysfs paths resolve in
 *     $UMOCKDEV_DIR/sys and come back without the prefix. (seatd checks device paths so.)
 *  6. open() with O_NOFOLLOW of a mocked node under /dev: the flag is dropped (the node is a
 *     symlink to a pty in the testbed, a device node on a real system).
 *  7. recvmsg(): a file descriptor received over a socket (SCM_RIGHTS: a seat daemon such as
 *     the seatd that libseat's builtin backend runs hands the compositor its device fds)
 *     that is a mocked evdev pty is unknown to umockdev's preload in this process, so its
 *     ioctls would go to the pty. It is replaced by the mocked node opened again here (the
 *     same pty, now known to umockdev), with the same access mode.
 *  8. ioctl(EVIOCGRAB) on an emulated evdev node: umockdev answers only recorded ioctls, and
 *     a grab is never in a recording. It succeeds (grab, or release); with
 *     $GESTUREKIT_UMOCKDEV_GRAB_LOG set, "grab /dev/input/eventN 1" (or 0) is appended to that
 *     file, so a test can see the grab asked for.
 *  9. open() of a mocked node under /dev failing with ENOENT, ENXIO, ENODEV or EIO while the
 *     testbed's node (its symlink) is there (seen once under load: the node's
 *     pseudo-terminal not there yet or any more): the open is tried
 *     again, up to OPEN_RETRIES times, OPEN_RETRY_US apart. Few times: umockdev's preload
 *     keeps a slot of its 50-slot table of open nodes, and a socket, for every open of a
 *     mocked node, failed ones included, and never frees them for a failed one; the 50th
 *     kills the process ("fd_map_add(): overflow"). With 3 retries a process survives ten
 *     failing opens (UmockdevFailedOpenTests; with 10 it died at the fifth).
 *     An open of /dev/input/eventN still failing so after the retries is described on
 *     stderr (the node, its pseudo-terminal and whether that exists, or that the testbed has
 *     no such node; the errno; the tries), so a failure of the mock can be told from one of
 *     the code under test.
 * 10. write() of whole struct input_events to an emulated evdev node (a keyboard's LEDs, which
 *     libinput sets when a compositor configures the keyboard): taken as written and dropped,
 *     as a device without LEDs would. umockdev keeps what the client writes in the node's
 *     pseudo-terminal, where a script's write operation (GestureMockDevice's gate: the
 *     recording waits for a token written from inside the testbed) would read it as the
 *     client's side of the dialog and abort the run ("data mismatch", measured with sway and a
 *     keyboard). A write of another length (a gate's token) passes.
 * 11. The write log. Loaded into umockdev-run itself (its program name is umockdev-run) with
 *     $GESTUREKIT_UMOCKDEV_WRITE_LOG naming a directory, the library does nothing but note,
 *     for every frame umockdev-run writes to a pseudo-terminal's master, the frame's
 *     recorded time and the time it was sent (12.), in a shared ring per pseudo-terminal
 *     (<directory>/write-log-pts<N>, the last WRITE_LOG_SIZE frames). Every other wrapper
 *     passes straight through in umockdev-run. A reader (3.) looks its frame up there by the
 *     recorded time. Measured before the log: under load, a touch's lift reached sway 0.2 s
 *     late and was stamped so, which made a 1.5 s long press last 1.7 s.
 * 12. The writer's schedule. umockdev-run plays a script by sleeping each line's delay
 *     (g_usleep, a relative nanosleep) and then writing, so every sleep's overshoot adds up:
 *     measured on the 152 frames of a 1.51 s long press, 32 ms late by the lift on an idle
 *     machine, 45 ms beside four busy loops, 150 ms in a loaded `make test`, where a long press
 *     then outlasted its recording. In umockdev-run (11.), a thread's nanosleep that follows
 *     its frame write counts from when the sleep before that write was due to end, not from
 *     now, so the frames keep the recording's spacing (a late write shortens the next
 *     sleeps until the thread is back on time); and the write log notes each frame's due time
 *     as the time it was sent, as a device's clock would have it. A thread's first sleep, or
 *     one after it read from a pseudo-terminal (a gate's token), or one that would start more
 *     than PACE_CATCH_UP_LIMIT_US behind its schedule, counts from now.
 * 13. The timing log. With $GESTUREKIT_UMOCKDEV_PAUSE_LOG naming a file, a reader (3.) appends
 *     "pause /dev/input/eventN MS at SECONDS" each time it re-bases a node's stamps because a
 *     frame was sent more than LAG_LIMIT_US late against the recording's spacing (the emulated
 *     fingers paused MS milliseconds before the frame recorded at SECONDS: umockdev's writer
 *     starved), and "late /dev/input/eventN MS at SECONDS" when it reads a frame more than
 *     READ_LATE_US after it was sent (the reader starved: its timers, which run on the clock,
 *     may have fired before it read the frames that came first). It is how a test tells that
 *     the reader did not meet the recording's timing, and so that a timer of its own
 *     (libinput's hold, tap and scroll timeouts) may rightly have decided otherwise.
 *     READ_LATE_US is 2 ms: the synthetic touchpad recordings' 12.5 ms frames against
 *     libinput's 40 ms hold timer put a decision 2.5 ms before the timer (a finger past
 *     0.5 mm at 37.5 ms), and a frame read 2.6 ms late, never noted at the former 20 ms, let
 *     libinput 1.22 begin a one-finger hold (1 replay in 40 beside three busy loops). An idle
 *     machine reads every frame 0.5-2 ms after it was sent (pseudo-terminal and wake-up).
 * 14. A script fed while it plays (a FIFO as umockdev-run's script: GestureMockDevice's
 *     MockDeviceFeed, which writes each step of input when a driver performs it). umockdev-run
 *     reads the next line when the last is played, and waits in that read until the feeder
 *     writes more: the time it waited is idle, not lateness, and a schedule kept across it
 *     (12.) would write the next step's frames at once, noting times in the past. So in
 *     umockdev-run, a thread about to read a script that is a FIFO with nothing buffered and
 *     nothing in the pipe starts its schedule again: its next sleep counts from now. Read
 *     with stdio (umockdev 0.17's FileStream: fgetc) or with read() (0.19's GIO stream); a
 *     read() of anything else (a gate's token from a pseudo-terminal) restarts it as before.
 *
 * One extension (a private protocol with GestureMockDevice's script generator): an event
 * with type 0xFFFF, code 0x4756 ("GV") means "the device vanished": the marker is never
 * returned, and from then on read() on that node fails with ENODEV, as on an unplug.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/input.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* The library's one symbol of its own; the rest is the libc functions it wraps. */
int gesturekit_umockdev_fix_version(void);

#define EVENT_SIZE ((ssize_t)sizeof(struct input_event))
#define LAG_LIMIT_US 8000
#define LEAD_LIMIT_US 5000
#define SLEW_FROM_US 2000
#define READ_LATE_US 2000 /* 13.: a frame read this long after it was sent is noted */
#define VANISH_TYPE 0xFFFF
#define VANISH_CODE 0x4756
#define MAX_PTYS 64
#define OPEN_RETRIES 3 /* see 9.: each try costs a slot of umockdev's table */
#define OPEN_RETRY_US 20000 /* 20 ms */
#define WRITE_LOG_SIZE 256 /* frames remembered per pseudo-terminal (11.) */
#define PTMX_MAJOR 5
#define PTMX_MINOR 2
#define PACE_CATCH_UP_LIMIT_US 1000000 /* 1 s: further behind, a writer's schedule starts again (12.) */

#define NEXT(name) \
    static __typeof__(name) *next_##name; \
    if (next_##name == NULL) next_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static pthread_mutex_t fix_lock = PTHREAD_MUTEX_INITIALIZER;

int gesturekit_umockdev_fix_version(void) { return 9; }

/* ---------------------------------------------------------------- 11. the write log */

struct write_log_entry {
    int64_t recorded_us;    /* the frame's first event's time, as recorded */
    int64_t sent_us;        /* CLOCK_MONOTONIC when umockdev-run was due to write it (12.) */
};

struct write_log {
    uint64_t count;         /* frames noted; entry i is at e[i % WRITE_LOG_SIZE] */
    struct write_log_entry e[WRITE_LOG_SIZE];
};

/* Whether this process is umockdev-run with a write log to keep: then only write() acts. */
static int writer_mode;

__attribute__((constructor)) static void
decide_mode(void)
{
    extern char *program_invocation_short_name;
    const char *dir = getenv("GESTUREKIT_UMOCKDEV_WRITE_LOG");
    writer_mode = dir != NULL && dir[0] != '\0' && program_invocation_short_name != NULL
                  && strcmp(program_invocation_short_name, "umockdev-run") == 0;
}

#define PASS_IN_WRITER(call) \
    do { if (writer_mode) return call; } while (0)

static int64_t monotonic_us(void);

/* The write log of pseudo-terminal `pts`, mapped; created (by the writer) if `create`.
 * NULL if there is none (yet). */
static struct write_log *
map_write_log(unsigned pts, int create)
{
    const char *dir = getenv("GESTUREKIT_UMOCKDEV_WRITE_LOG");
    if (dir == NULL || dir[0] == '\0')
        return NULL;
    char path[PATH_MAX];
    if (snprintf(path, sizeof(path), "%s/write-log-pts%u", dir, pts) >= (int)sizeof(path))
        return NULL;
    int saved = errno;
    NEXT(open);
    int fd = next_open(path, create ? (O_RDWR | O_CREAT | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC), 0644);
    struct write_log *log = NULL;
    if (fd >= 0) {
        struct stat st;
        NEXT(fstat);
        if (create && ftruncate(fd, sizeof(struct write_log)) != 0) {
            /* no log: readers fall back to the time of the read */
        } else if (next_fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(struct write_log)) {
            void *m = mmap(NULL, sizeof(struct write_log), create ? PROT_READ | PROT_WRITE : PROT_READ,
                           MAP_SHARED, fd, 0);
            if (m != MAP_FAILED)
                log = m;
        }
        close(fd);
    }
    errno = saved;
    return log;
}

static struct { unsigned pts; struct write_log *log; } writer_logs[MAX_PTYS];

/* 12.: when this thread's last sleep was due to end, and what the thread did since. */
static __thread int64_t pace_due_us;
static __thread enum { PACE_NONE, PACE_SLEPT, PACE_WROTE } pace_state;

/* umockdev-run writes `count` bytes to `fd`: if they are whole input events going to a
 * pseudo-terminal's master, note each frame's recorded time and the time it was sent: when
 * the sleep before it was due to end (12.), or now if the thread did not sleep before it. */
static void
note_write(int fd, const void *buf, size_t count)
{
    if (count == 0 || count % EVENT_SIZE != 0)
        return;
    struct stat st;
    int saved = errno;
    NEXT(fstat);
    NEXT(ioctl);
    unsigned pts;
    if (next_fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) != PTMX_MAJOR
        || minor(st.st_rdev) != PTMX_MINOR || next_ioctl(fd, TIOCGPTN, &pts) != 0) {
        errno = saved;
        return;
    }
    pthread_mutex_lock(&fix_lock);
    struct write_log *log = NULL;
    for (int i = 0; i < MAX_PTYS && log == NULL; i++) {
        if (writer_logs[i].log != NULL && writer_logs[i].pts == pts) {
            log = writer_logs[i].log;
        } else if (writer_logs[i].log == NULL) {
            log = map_write_log(pts, 1);
            writer_logs[i].pts = pts;
            writer_logs[i].log = log;
            break;
        }
    }
    if (log != NULL) {
        int64_t sent = pace_state != PACE_NONE ? pace_due_us : monotonic_us();
        const struct input_event *ev = buf;
        size_t events = count / EVENT_SIZE;
        int frame_start = 1;
        uint64_t n = log->count;
        for (size_t i = 0; i < events; i++) {
            if (frame_start) {
                log->e[n % WRITE_LOG_SIZE].recorded_us =
                    (int64_t)ev[i].input_event_sec * 1000000 + (int64_t)ev[i].input_event_usec;
                log->e[n % WRITE_LOG_SIZE].sent_us = sent;
                n++;
            }
            frame_start = ev[i].type == EV_SYN && (ev[i].code == SYN_REPORT || ev[i].code == SYN_DROPPED);
        }
        __atomic_store_n(&log->count, n, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&fix_lock);
    if (pace_state != PACE_NONE)
        pace_state = PACE_WROTE;
    errno = saved;
}

/* ---------------------------------------------------------------- 12. the writer's schedule */

int
nanosleep(const struct timespec *request, struct timespec *remaining)
{
    NEXT(nanosleep);
    if (!writer_mode || request == NULL || request->tv_sec < 0 || request->tv_nsec < 0
        || request->tv_nsec >= 1000000000L)
        return next_nanosleep(request, remaining);
    int64_t now = monotonic_us();
    int64_t delay = (int64_t)request->tv_sec * 1000000 + request->tv_nsec / 1000;
    int chained = pace_state == PACE_WROTE && now - pace_due_us <= PACE_CATCH_UP_LIMIT_US;
    int64_t due = (chained ? pace_due_us : now) + delay;
    pace_due_us = due;
    pace_state = PACE_SLEPT;
    struct timespec until = { .tv_sec = due / 1000000, .tv_nsec = (due % 1000000) * 1000 };
    int r;
    while ((r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL)) == EINTR)
        continue;
    if (remaining != NULL)
        remaining->tv_sec = remaining->tv_nsec = 0;
    if (r != 0) {
        errno = r;
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- 14. a script fed while it plays */

/* Whether `fd` is a FIFO with nothing in it now (a feeder has not written the next line). */
static int
fifo_is_empty(int fd)
{
    struct stat st;
    int saved = errno;
    NEXT(fstat);
    int empty = 0;
    if (fd >= 0 && next_fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        empty = poll(&p, 1, 0) == 0;
    }
    errno = saved;
    return empty;
}

/* Whether `fd` is a FIFO. */
static int
is_fifo(int fd)
{
    struct stat st;
    int saved = errno;
    NEXT(fstat);
    int fifo = fd >= 0 && next_fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
    errno = saved;
    return fifo;
}

int
fgetc(FILE *stream)
{
    NEXT(fgetc);
#ifdef __GLIBC__
    /* Nothing left in the stream's buffer, and nothing in the FIFO behind it: this read waits
     * for the feeder, so the thread's schedule starts again (14.). */
    if (writer_mode && stream != NULL && stream->_IO_read_ptr >= stream->_IO_read_end
        && fifo_is_empty(fileno(stream)))
        pace_state = PACE_NONE;
#endif
    return next_fgetc(stream);
}

/* The time umockdev-run sent the frame recorded at `recorded_us`, from `log`: the newest
 * such entry. 0 if the log does not have it. */
static int64_t
sent_time(const struct write_log *log, int64_t recorded_us)
{
    if (log == NULL)
        return 0;
    uint64_t n = __atomic_load_n(&log->count, __ATOMIC_ACQUIRE);
    for (uint64_t k = 1; k <= n && k <= WRITE_LOG_SIZE; k++) {
        const struct write_log_entry *e = &log->e[(n - k) % WRITE_LOG_SIZE];
        if (e->recorded_us == recorded_us)
            return e->sent_us;
    }
    return 0;
}

/* Whether `path` (absolute, under /dev/) names a symlink in the testbed: a mocked node. */
static int
is_mocked_dev_node(const char *path)
{
    if (path == NULL || strncmp(path, "/dev/", 5) != 0)
        return 0;
    const char *root = getenv("UMOCKDEV_DIR");
    if (root == NULL || root[0] == '\0')
        return 0;
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof(buf), "%s%s", root, path) >= (int)sizeof(buf))
        return 0;
    struct stat st;
    int saved = errno;
    NEXT(lstat);
    int r = next_lstat(buf, &st);
    errno = saved;
    return r == 0 && S_ISLNK(st.st_mode);
}

/* ---------------------------------------------------------------- 1. udev data */

static const char udev_data_prefix[] = "/run/udev/data/";

/* Returns `path`, or the redirected path written into `buf`. */
static const char *
redirect_udev_data(const char *path, char *buf, size_t len)
{
    if (path == NULL || strncmp(path, udev_data_prefix, sizeof(udev_data_prefix) - 1) != 0)
        return path;
    const char *root = getenv("UMOCKDEV_DIR");
    if (root == NULL || root[0] == '\0')
        return path;
    const char *entry = path + sizeof(udev_data_prefix) - 1;
    if (snprintf(buf, len, "%s/run/udev/data/%s", root, entry) >= (int)len)
        return path;

    unsigned maj, min;
    char kind;
    if (sscanf(entry, "%c%u:%u", &kind, &maj, &min) == 3 && (kind == 'c' || kind == 'b')) {
        char sys[PATH_MAX];
        struct stat st;
        NEXT(stat);
        snprintf(sys, sizeof(sys), "%s/sys/dev/%s/%u:%u", root, kind == 'c' ? "char" : "block", maj, min);
        if (next_stat(sys, &st) == 0 && next_stat(buf, &st) != 0) {
            /* create $UMOCKDEV_DIR/run/udev/data/<entry> with "I:1" */
            char dir[PATH_MAX];
            snprintf(dir, sizeof(dir), "%s/run", root);
            mkdir(dir, 0755);
            snprintf(dir, sizeof(dir), "%s/run/udev", root);
            mkdir(dir, 0755);
            snprintf(dir, sizeof(dir), "%s/run/udev/data", root);
            mkdir(dir, 0755);
            NEXT(open);
            int fd = next_open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd >= 0) {
                static const char initialized[] = "I:1\n";
                ssize_t ignored = write(fd, initialized, sizeof(initialized) - 1);
                (void)ignored;
                close(fd);
            }
        }
    }
    return buf;
}

/* Whether an open of a mocked node failing with `err` is worth trying again (9.). */
static int
open_error_is_transient(int err)
{
    return err == ENOENT || err == ENXIO || err == ENODEV || err == EIO;
}

/* Whether `path` names an evdev node (/dev/input/eventN) in a testbed. */
static int
is_evdev_path(const char *path)
{
    const char *root = getenv("UMOCKDEV_DIR");
    return path != NULL && root != NULL && root[0] != '\0' && strncmp(path, "/dev/input/event", 16) == 0;
}

/* 9.: an open of evdev node `path` failed with `err` after `tries` tries: say so on stderr. */
static void
describe_failed_open(const char *path, int err, int tries)
{
    const char *root = getenv("UMOCKDEV_DIR");
    char link[PATH_MAX], target[PATH_MAX];
    ssize_t n = -1;
    if (root != NULL && snprintf(link, sizeof(link), "%s%s", root, path) < (int)sizeof(link)) {
        NEXT(readlink);
        n = next_readlink(link, target, sizeof(target) - 1);
    }
    if (n < 0) {
        fprintf(stderr, "gesturekit umockdev fix: open %s failed (%s) %d times; the testbed has no node for it\n",
                path, strerror(err), tries);
        return;
    }
    target[n] = '\0';
    struct stat st;
    NEXT(lstat);
    int exists = next_lstat(target, &st) == 0;
    fprintf(stderr, "gesturekit umockdev fix: open %s failed (%s) %d times; its pseudo-terminal %s %s\n",
            path, strerror(err), tries, target, exists ? "exists" : "does not exist");
}

static mode_t
open_mode(int flags, va_list ap)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

#define WRAP_OPEN(name)                                                     \
    int name(const char *path, int flags, ...)                              \
    {                                                                       \
        NEXT(name);                                                         \
        va_list ap;                                                         \
        va_start(ap, flags);                                                \
        mode_t mode = open_mode(flags, ap);                                 \
        va_end(ap);                                                         \
        PASS_IN_WRITER(next_##name(path, flags, mode));                     \
        char buf[PATH_MAX];                                                 \
        int saved = errno;                                                  \
        const char *p = redirect_udev_data(path, buf, sizeof(buf));         \
        if ((flags & O_NOFOLLOW) && is_mocked_dev_node(path))               \
            flags &= ~O_NOFOLLOW;                                           \
        errno = saved;                                                      \
        int fd = next_##name(p, flags, mode);                               \
        int err = errno;                                                    \
        int tries = 1;                                                      \
        int mocked = fd < 0 && open_error_is_transient(err)                 \
                     && is_mocked_dev_node(path);                           \
        for (; mocked && fd < 0 && open_error_is_transient(err)             \
               && tries <= OPEN_RETRIES; tries++) {                         \
            usleep(OPEN_RETRY_US);                                          \
            fd = next_##name(p, flags, mode);                               \
            err = errno;                                                    \
        }                                                                   \
        if (fd < 0 && open_error_is_transient(err) && is_evdev_path(path))  \
            describe_failed_open(path, err, tries);                         \
        errno = err;                                                        \
        return fd;                                                          \
    }

#define WRAP_OPENAT(name)                                                   \
    int name(int dirfd, const char *path, int flags, ...)                   \
    {                                                                       \
        NEXT(name);                                                         \
        va_list ap;                                                         \
        va_start(ap, flags);                                                \
        mode_t mode = open_mode(flags, ap);                                 \
        va_end(ap);                                                         \
        PASS_IN_WRITER(next_##name(dirfd, path, flags, mode));              \
        char buf[PATH_MAX];                                                 \
        int saved = errno;                                                  \
        const char *p = redirect_udev_data(path, buf, sizeof(buf));         \
        if ((flags & O_NOFOLLOW) && is_mocked_dev_node(path))               \
            flags &= ~O_NOFOLLOW;                                           \
        errno = saved;                                                      \
        int fd = next_##name(dirfd, p, flags, mode);                        \
        int err = errno;                                                    \
        int tries = 1;                                                      \
        int mocked = fd < 0 && open_error_is_transient(err)                 \
                     && is_mocked_dev_node(path);                           \
        for (; mocked && fd < 0 && open_error_is_transient(err)             \
               && tries <= OPEN_RETRIES; tries++) {                         \
            usleep(OPEN_RETRY_US);                                          \
            fd = next_##name(dirfd, p, flags, mode);                        \
            err = errno;                                                    \
        }                                                                   \
        if (fd < 0 && open_error_is_transient(err) && is_evdev_path(path))  \
            describe_failed_open(path, err, tries);                         \
        errno = err;                                                        \
        return fd;                                                          \
    }

#define WRAP_FOPEN(name)                                                    \
    FILE *name(const char *path, const char *mode)                          \
    {                                                                       \
        NEXT(name);                                                         \
        PASS_IN_WRITER(next_##name(path, mode));                            \
        char buf[PATH_MAX];                                                 \
        int saved = errno;                                                  \
        const char *p = redirect_udev_data(path, buf, sizeof(buf));         \
        errno = saved;                                                      \
        return next_##name(p, mode);                                        \
    }

WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)
WRAP_FOPEN(fopen)
WRAP_FOPEN(fopen64)

/* _FORTIFY_SOURCE variants */
int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }
int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
int __openat64_2(int dirfd, const char *path, int flags) { return openat64(dirfd, path, flags); }

/* ---------------------------------------------------------------- 2. fstat */

/* The emulated device number of a pty slave, or 0 if `rdev` is not one umockdev maps. */
static dev_t
emulated_rdev_of_pty(dev_t rdev)
{
    unsigned maj = major(rdev);
    if (maj < 136 || maj > 143)     /* UNIX98 pty slaves */
        return 0;
    const char *root = getenv("UMOCKDEV_DIR");
    if (root == NULL || root[0] == '\0')
        return 0;
    unsigned n = (maj - 136) * 256 + minor(rdev);
    char link[PATH_MAX], target[64];
    snprintf(link, sizeof(link), "%s/dev/.ptymap/_dev_pts_%u", root, n);
    int saved = errno;
    NEXT(readlink);
    ssize_t len = next_readlink(link, target, sizeof(target) - 1);
    errno = saved;
    if (len <= 0)
        return 0;
    target[len] = '\0';
    unsigned emaj, emin;
    if (sscanf(target, "%u:%u", &emaj, &emin) != 2)
        return 0;
    return makedev(emaj, emin);
}

static void
fix_stat_rdev(struct stat *st)
{
    if (S_ISCHR(st->st_mode)) {
        dev_t mapped = emulated_rdev_of_pty(st->st_rdev);
        if (mapped != 0)
            st->st_rdev = mapped;
    }
}

int
fstat(int fd, struct stat *st)
{
    NEXT(fstat);
    int r = next_fstat(fd, st);
    if (r == 0 && !writer_mode)
        fix_stat_rdev(st);
    return r;
}

int
fstat64(int fd, struct stat64 *st)
{
    NEXT(fstat64);
    int r = next_fstat64(fd, st);
    if (r == 0 && !writer_mode)
        fix_stat_rdev((struct stat *)st); /* identical layout on 64-bit */
    return r;
}

/* ---------------------------------------------------------------- 3./4. read */

struct pty_state {
    dev_t pty;              /* pty slave device number; 0 = unused slot */
    dev_t emulated;         /* emulated device number (13:<minor> for evdev) */
    int has_offset;
    int frame_start;
    int vanished;
    int64_t offset_us;      /* monotonic = recorded + offset */
    struct write_log *log;  /* umockdev-run's write log of this pty (11.), once there */
};

static struct pty_state ptys[MAX_PTYS];

static struct pty_state *
evdev_state_for_fd(int fd)
{
    struct stat st;
    NEXT(fstat);
    int saved = errno;
    int r = next_fstat(fd, &st);
    errno = saved;
    if (r != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) < 136 || major(st.st_rdev) > 143)
        return NULL;
    for (int i = 0; i < MAX_PTYS; i++)
        if (ptys[i].pty == st.st_rdev)
            return major(ptys[i].emulated) == 13 ? &ptys[i] : NULL;
    dev_t mapped = emulated_rdev_of_pty(st.st_rdev);
    for (int i = 0; i < MAX_PTYS; i++)
        if (ptys[i].pty == 0) {
            memset(&ptys[i], 0, sizeof(ptys[i]));
            ptys[i].pty = st.st_rdev;
            ptys[i].emulated = mapped;
            ptys[i].frame_start = 1;
            return major(mapped) == 13 ? &ptys[i] : NULL;
        }
    return NULL;
}

static int64_t
monotonic_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Completes a partial trailing event; returns the new byte count. */
static ssize_t
complete_partial(int fd, char *buf, ssize_t n, size_t count)
{
    NEXT(read);
    ssize_t target = n + (EVENT_SIZE - n % EVENT_SIZE);
    if ((size_t)target > count)
        return n;
    int saved = errno;
    while (n < target) {
        ssize_t r = next_read(fd, buf + n, (size_t)(target - n));
        if (r > 0) {
            n += r;
        } else if (r < 0 && errno == EINTR) {
            continue;
        } else if (r < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = fd, .events = POLLIN };
            if (poll(&p, 1, 1000) <= 0)
                break;
        } else {
            break;
        }
    }
    errno = saved;
    return n;
}

ssize_t
write(int fd, const void *buf, size_t count)
{
    NEXT(write);
    if (writer_mode) {
        note_write(fd, buf, count);
        return next_write(fd, buf, count);
    }
    if (count > 0 && count % EVENT_SIZE == 0) {
        pthread_mutex_lock(&fix_lock);
        struct pty_state *s = evdev_state_for_fd(fd);
        pthread_mutex_unlock(&fix_lock);
        if (s != NULL)
            return (ssize_t)count;
    }
    return next_write(fd, buf, count);
}

/* 13.: the emulated fingers paused (`what` "pause") or the reader read late ("late") by `lag_us`,
 * at the frame recorded at `recorded_us`. */
static void
note_timing(const char *what, dev_t emulated, int64_t lag_us, int64_t recorded_us)
{
    const char *path = getenv("GESTUREKIT_UMOCKDEV_PAUSE_LOG");
    if (path == NULL)
        return;
    int saved = errno;
    FILE *f = fopen(path, "a");
    if (f != NULL) {
        fprintf(f, "%s /dev/input/event%u %.1f at %.6f\n", what, minor(emulated) - 64, lag_us / 1000.0, recorded_us / 1e6);
        fclose(f);
    }
    errno = saved;
}

ssize_t
read(int fd, void *buf, size_t count)
{
    NEXT(read);
    if (writer_mode) {
        /* 12.: a gate's token: the next sleep counts from now; 14.: a FIFO's next line, when
         * the feeder has not written it yet. */
        if (!is_fifo(fd) || fifo_is_empty(fd))
            pace_state = PACE_NONE;
        return next_read(fd, buf, count);
    }
    pthread_mutex_lock(&fix_lock);
    struct pty_state *s = evdev_state_for_fd(fd);
    if (s != NULL && s->vanished) {
        pthread_mutex_unlock(&fix_lock);
        errno = ENODEV;
        return -1;
    }
    pthread_mutex_unlock(&fix_lock);

    ssize_t n = next_read(fd, buf, count);
    if (n <= 0 || s == NULL)
        return n;

    pthread_mutex_lock(&fix_lock);
    if (n % EVENT_SIZE != 0)
        n = complete_partial(fd, buf, n, count);

    int64_t now = monotonic_us();
    int64_t paused_us = 0, paused_at_us = 0, late_us = 0, late_at_us = 0; /* 13. */
    ssize_t events = n / EVENT_SIZE;
    struct input_event *ev = buf;
    for (ssize_t i = 0; i < events; i++) {
        if (ev[i].type == VANISH_TYPE && ev[i].code == VANISH_CODE) {
            s->vanished = 1;
            n = i * EVENT_SIZE;
            break;
        }
        int64_t t = (int64_t)ev[i].input_event_sec * 1000000 + (int64_t)ev[i].input_event_usec;
        if (s->frame_start) {
            if (s->log == NULL)
                s->log = map_write_log((major(s->pty) - 136) * 256 + minor(s->pty), 0);
            int64_t sent = sent_time(s->log, t);
            int64_t arrived = sent != 0 ? sent : now;
            if (sent != 0 && now - sent > READ_LATE_US && now - sent > late_us) {
                late_us = now - sent; /* noted once the lock is let go */
                late_at_us = t;
            }
            int64_t mapped = t + s->offset_us;
            if (!s->has_offset || arrived - mapped > LAG_LIMIT_US || mapped - arrived > LEAD_LIMIT_US) {
                if (s->has_offset && arrived - mapped > LAG_LIMIT_US && arrived - mapped > paused_us) {
                    paused_us = arrived - mapped; /* noted once the lock is let go */
                    paused_at_us = t;
                }
                s->offset_us = arrived - t;
                s->has_offset = 1;
            } else if (arrived - mapped > SLEW_FROM_US) {
                /* replay drifts late (~0.2 ms a frame): follow it smoothly */
                s->offset_us += (arrived - mapped - SLEW_FROM_US) / 4;
            }
            s->frame_start = 0;
        }
        int64_t mapped = t + s->offset_us;
        ev[i].input_event_sec = mapped / 1000000;
        ev[i].input_event_usec = mapped % 1000000;
        if (ev[i].type == EV_SYN && (ev[i].code == SYN_REPORT || ev[i].code == SYN_DROPPED))
            s->frame_start = 1;
    }
    int vanished_now = s->vanished && n == 0;
    dev_t emulated = s->emulated;
    pthread_mutex_unlock(&fix_lock);
    if (paused_us > 0)
        note_timing("pause", emulated, paused_us, paused_at_us);
    if (late_us > 0)
        note_timing("late", emulated, late_us, late_at_us);
    if (vanished_now) {
        errno = ENODEV;
        return -1;
    }
    return n;
}

/* ---------------------------------------------------------------- 8. EVIOCGRAB */

int
ioctl(int fd, unsigned long request, ...)
{
    NEXT(ioctl);
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (request == (unsigned long)EVIOCGRAB && !writer_mode) {
        pthread_mutex_lock(&fix_lock);
        struct pty_state *s = evdev_state_for_fd(fd);
        dev_t emulated = s != NULL ? s->emulated : 0;
        pthread_mutex_unlock(&fix_lock);
        if (s != NULL) {
            const char *log = getenv("GESTUREKIT_UMOCKDEV_GRAB_LOG");
            if (log != NULL) {
                FILE *f = fopen(log, "a");
                if (f != NULL) {
                    fprintf(f, "grab /dev/input/event%u %d\n", minor(emulated) - 64, arg != NULL ? 1 : 0);
                    fclose(f);
                }
            }
            return 0;
        }
    }
    return next_ioctl(fd, request, arg);
}

/* ---------------------------------------------------------------- 5. realpath */

char *
realpath(const char *path, char *resolved)
{
    NEXT(realpath);
    PASS_IN_WRITER(next_realpath(path, resolved));
    const char *root = getenv("UMOCKDEV_DIR");
    if (path == NULL || root == NULL || root[0] == '\0' ||
        (strncmp(path, "/dev/", 5) != 0 && strncmp(path, "/sys/", 5) != 0))
        return next_realpath(path, resolved);
    if (is_mocked_dev_node(path)) {
        if (strlen(path) >= PATH_MAX) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        char *out = resolved != NULL ? resolved : malloc(PATH_MAX);
        if (out == NULL)
            return NULL;
        strcpy(out, path);
        return out;
    }
    if (strncmp(path, "/sys/", 5) != 0)
        return next_realpath(path, resolved);
    char inside[PATH_MAX], result[PATH_MAX];
    if (snprintf(inside, sizeof(inside), "%s%s", root, path) >= (int)sizeof(inside))
        return next_realpath(path, resolved);
    if (next_realpath(inside, result) == NULL)
        return NULL;
    char rootreal[PATH_MAX];
    size_t n = 0;
    if (next_realpath(root, rootreal) != NULL)
        n = strlen(rootreal);
    const char *tail = (n > 0 && strncmp(result, rootreal, n) == 0) ? result + n : result;
    char *out = resolved != NULL ? resolved : malloc(PATH_MAX);
    if (out == NULL)
        return NULL;
    snprintf(out, PATH_MAX, "%s", tail);
    return out;
}

char *
__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
    (void)resolvedlen;
    return realpath(path, resolved);
}

/* ---------------------------------------------------------------- 7. recvmsg */

/* The /dev/input/eventN (mocked in the testbed) whose pty is `pts` ("/dev/pts/N"), if any.
 * No opendir() (umockdev wraps it): the names umockdev gives evdev nodes are tried. */
static int
mocked_node_of_pty(const char *pts, char *out, size_t len)
{
    const char *root = getenv("UMOCKDEV_DIR");
    if (root == NULL || root[0] == '\0')
        return 0;
    NEXT(readlink);
    for (int i = 0; i < 64; i++) {
        char link[PATH_MAX], target[PATH_MAX];
        snprintf(link, sizeof(link), "%s/dev/input/event%d", root, i);
        ssize_t n = next_readlink(link, target, sizeof(target) - 1);
        if (n <= 0)
            continue;
        target[n] = '\0';
        if (strcmp(target, pts) == 0) {
            snprintf(out, len, "/dev/input/event%d", i);
            return 1;
        }
    }
    return 0;
}

static int
reopen_mocked_fd(int fd)
{
    struct stat st;
    NEXT(fstat);
    if (next_fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) || major(st.st_rdev) < 136 ||
        major(st.st_rdev) > 143)
        return fd;
    dev_t emulated = emulated_rdev_of_pty(st.st_rdev);
    if (emulated == 0)
        return fd;
    char pts[64], node[PATH_MAX];
    snprintf(pts, sizeof(pts), "/dev/pts/%u", (major(st.st_rdev) - 136) * 256 + minor(st.st_rdev));
    if (!mocked_node_of_pty(pts, node, sizeof(node)))
        return fd;
    int fl = fcntl(fd, F_GETFL);
    int flags = (fl >= 0 ? fl & (O_ACCMODE | O_NONBLOCK) : O_RDWR) | O_CLOEXEC | O_NOCTTY;
    int again = open(node, flags);
    if (again < 0)
        return fd;
    close(fd);
    return again;
}

ssize_t
recvmsg(int sockfd, struct msghdr *msg, int flags)
{
    NEXT(recvmsg);
    ssize_t n = next_recvmsg(sockfd, msg, flags);
    if (writer_mode || n < 0 || msg == NULL || msg->msg_controllen == 0)
        return n;
    int saved = errno;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *fds = (int *)CMSG_DATA(c);
        for (size_t i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, &fds[i], sizeof(int));
            int replaced = reopen_mocked_fd(fd);
            memcpy(&fds[i], &replaced, sizeof(int));
        }
    }
    errno = saved;
    return n;
}
