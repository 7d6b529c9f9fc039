/*-------------------------------------------------------------------------
 *
 * cpu.h
 *		CPU time and host facts from the operating system (cpu.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHKIT_OBSERVE_CPU_H
#define PGBENCHKIT_OBSERVE_CPU_H

#include "observe/observe.h"

extern int64 obs_process_cpu_ns(void);
extern char *obs_host_cpu(BkObserver *o);
extern bool obs_server_cpu(double *secs);
extern char *obs_cpu_json(BkObserver *o);
extern char *obs_host_json(void);

#endif							/* PGBENCHKIT_OBSERVE_CPU_H */
