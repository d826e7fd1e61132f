#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <stdatomic.h>
#include <immintrin.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static void nt_copy(char *d, const char *s, size_t n){
  for(size_t i=0;i<n;i+=64){ __m256i a=_mm256_loadu_si256((const __m256i*)(s+i)), b=_mm256_loadu_si256((const __m256i*)(s+i+32));
    _mm256_stream_si256((__m256i*)(d+i),a); _mm256_stream_si256((__m256i*)(d+i+32),b);} _mm_sfence(); }
/* mode 0: producer memcpy -> consumer memcpy out; 1: producer NT copy; 2: consumer writes (RFO) into lines producer just read; 3: local memcpy only */
int main(int argc,char**argv){
  size_t bytes = strtoul(argv[1],0,0); int iters=atoi(argv[2]); int mode=atoi(argv[3]);
  char *shm = mmap(0, bytes+4096, PROT_READ|PROT_WRITE, MAP_SHARED|MAP_ANONYMOUS, -1, 0);
  _Atomic long *flag = (_Atomic long*)(shm+bytes); atomic_store(flag,0);
  char *buf = shm; memset(buf,1,bytes);
  pid_t pid=fork();
  cpu_set_t set; CPU_ZERO(&set); CPU_SET(pid==0?1:0,&set); sched_setaffinity(0,sizeof set,&set);
  char *priv = aligned_alloc(64,bytes); memset(priv, 2, bytes);
  double t0=0;
  for(int i=0;i<iters;i++){
    if(pid!=0){
      while(atomic_load_explicit(flag,memory_order_acquire)!=2*i) ;
      if(i==10) t0=now();
      if(mode==1) nt_copy(buf,priv,bytes); else if(mode==2) memcpy(priv,buf,bytes); else memcpy(buf,priv,bytes);
      atomic_store_explicit(flag,2*i+1,memory_order_release);
    } else {
      while(atomic_load_explicit(flag,memory_order_acquire)!=2*i+1) ;
      if(mode==2) memcpy(buf,priv,bytes); else if (mode==3) memcpy(priv+0, priv+0, 0); else memcpy(priv,buf,bytes);
      atomic_store_explicit(flag,2*i+2,memory_order_release);
    }
  }
  if(pid!=0){ while(atomic_load(flag)!=2*iters); double t=(now()-t0)/(iters-10);
    printf("%.1f", t); wait(0); }
  return 0;
}
