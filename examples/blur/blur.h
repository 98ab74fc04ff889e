#ifndef BLUR_H
#define BLUR_H
// Tile handled by one PCORE: BLK_H rows of BLK_W columns of VECTOR_WIDTH-wide vectors
#define BLK_W 4
#define BLK_H 6
#define TILE_W (BLK_W+2)
#define TILE_H (BLK_H+2)
#define GRID_R 2
#define GRID_C 4
#define OUT_WORDS 64
#endif
