#ifndef VISION_H
#define VISION_H
// A tile is what one EXE_LOCKSTEP works on: NUM_PCORE rows of TILE_W pixels, one pixel per lane
// (PCORE p holds row p of the tile, thread t pixels t*VECTOR_WIDTH .. t*VECTOR_WIDTH+7 of it).
#define NUM_THREAD 16
#define TILE_W (NUM_THREAD * VECTOR_WIDTH)
#define TILE_H NUM_PCORE
#define TILE (TILE_W * TILE_H)
#endif
