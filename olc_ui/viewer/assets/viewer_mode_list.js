// The mode modules bundled with the viewer (each registers itself with viewer_modes.js on import).
// A new mode: one line here, its module next to this file, and its CSS in viewer.css.
import "./viewer_present.js";
import "./viewer_class.js";
import "./viewer_predict.js";
import "./viewer_game.js";
import "./viewer_game_plane.js";
import "./viewer_game_bars.js";
import "./viewer_phone.js";
import "./viewer_sound.js";
import "./viewer_tour.js";
