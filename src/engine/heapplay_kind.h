/* SPDX-License-Identifier: MIT */
/* Private to the engine: what heap play computes, for the direct search
 * (heapplay_search.c) and the subtraction-game solvers
 * (heapplay_subtraction.c): the misere outcome (1 when the player to move
 * wins, else 0) or the remoteness (heapplay.h). */
#ifndef GRUNDY_ENGINE_HEAPPLAY_KIND_H
#define GRUNDY_ENGINE_HEAPPLAY_KIND_H

typedef enum play_kind { KIND_MISERE, KIND_REMOTENESS } play_kind;

#endif
