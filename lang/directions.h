// Player-relative directions, shared by the checker (which resolves them) and the translator
// (which writes them back).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lang/rules.h"

namespace troyka::lang {

// The board's directions, the same for every player.
inline const std::vector<std::pair<std::string, Offset>> kAbsoluteDirections = {
    {"n", {0, 1}},  {"s", {0, -1}},  {"e", {1, 0}},   {"w", {-1, 0}},
    {"ne", {1, 1}}, {"nw", {-1, 1}}, {"se", {1, -1}}, {"sw", {-1, -1}},
};
// The name of a board direction, n ... nw, or "" for another offset.
inline std::string direction_name(Offset offset) {
  for (const auto& [name, direction] : kAbsoluteDirections)
    if (direction == offset) return name;
  return {};
}

// The name of a board direction of `rules`: n ... nw, or a direction its links name (Rules::link_directions),
// or "" for another offset.
inline std::string direction_name(const Rules& rules, Offset offset) {
  const std::string compass = direction_name(offset);
  return compass.empty() ? rules.link_direction_name(offset) : compass;
}

// Relative directions in (right, forward) of the player.
inline const std::vector<std::pair<std::string, Offset>> kRelativeDirections = {
    {"forward", {0, 1}},       {"backward", {0, -1}},     {"right", {1, 0}},           {"left", {-1, 0}},
    {"forward-right", {1, 1}}, {"forward-left", {-1, 1}}, {"backward-right", {1, -1}}, {"backward-left", {-1, -1}},
};

// A relative offset (right, forward) turned into an absolute one for a player facing `forward`.
inline Offset orient(Offset relative, Offset forward) {
  const Offset right{forward.dy, -forward.dx};  // forward rotated a quarter turn clockwise
  return {relative.dx * right.dx + relative.dy * forward.dx, relative.dx * right.dy + relative.dy * forward.dy};
}

// An absolute offset as a player facing `forward` sees it, in (right, forward): orient()'s inverse.
inline Offset relative_to(Offset absolute, Offset forward) { return orient(absolute, {-forward.dx, forward.dy}); }

}  // namespace troyka::lang
