import fs from 'node:fs'

/**
 * User + system CPU time of a process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms), all its threads
 * included (libuv's pool writes the log lines). CPU per request is steadier than req/s on a shared machine: the load
 * generator and PostgreSQL take cores from the server unevenly from one round to the next.
 */
export function cpuMs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}
