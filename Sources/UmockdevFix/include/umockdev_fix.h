#ifndef GESTUREKIT_UMOCKDEV_FIX_H
#define GESTUREKIT_UMOCKDEV_FIX_H
/* LD_PRELOAD library; see umockdev_fix.c. Its only API is the set of libc functions it
 * wraps (open*, fopen*, fstat*, read). */
int gesturekit_umockdev_fix_version(void);
#endif
