/* memcpy s/B per size, 1 MB .. 256 MB (median of its repetitions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int c,char**v){ size_t sz[]={1<<20,4<<20,16<<20,32<<20,64<<20,128<<20,256<<20};
 for(int i=0;i<7;i++){size_t n=sz[i];char*a=malloc(n),*b=malloc(n);memset(a,1,n);memset(b,2,n);
  double best=1e9; int reps= (int)(512.0*(1<<20)/n); if(reps<3)reps=3;
  double ts[64]; int k=0;
  for(int r=0;r<reps && r<64;r++){double t0=now();memcpy(b,a,n);double t=now()-t0;ts[k++]=t; a[r]++;}
  // median
  for(int x=0;x<k;x++)for(int y=x+1;y<k;y++)if(ts[y]<ts[x]){double q=ts[x];ts[x]=ts[y];ts[y]=q;}
  printf("%zu MB: median %.3g s/B (%.2f ms)\n", n>>20, ts[k/2]/n, ts[k/2]*1e3);
  free(a);free(b);} }
