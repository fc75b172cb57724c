// The board's sounds: a move, a capture and a check, each a short tone made
// with WebAudio (no sound files), and a mute switch the browser remembers.
// sound.play("move" | "capture" | "check"), also window.banmenSound; `played`
// counts the sounds made and `silenced` those a mute swallowed (for the
// browser tests). playSound(): the sound a new state of the game makes.
import { parseUsi } from "./state.js";

const KEY = "banmen-muted";
// Each sound: [frequency Hz, wave, seconds, start gain], one per note.
const NOTES = {
  move: [[330, "triangle", 0.07, 0.35]],
  capture: [[220, "square", 0.06, 0.18], [150, "triangle", 0.1, 0.35]],
  check: [[660, "sine", 0.09, 0.3], [880, "sine", 0.14, 0.3]],
};
let context = null;
export const sound = {
  muted: localStorage.getItem(KEY) === "1",
  played: { move: 0, capture: 0, check: 0 },
  silenced: 0,
  setMuted(muted) {
    sound.muted = muted;
    localStorage.setItem(KEY, muted ? "1" : "0");
  },
  play(kind) {
    const notes = NOTES[kind];
    if (!notes) throw new Error(`no sound '${kind}'`);
    if (sound.muted) { sound.silenced++; return; }
    sound.played[kind]++;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    context = context || new Ctx();
    // A context made before the first click starts suspended.
    if (context.state === "suspended") context.resume().catch(() => {});
    let t = context.currentTime;
    for (const [freq, wave, secs, gain] of notes) {
      const osc = context.createOscillator(), amp = context.createGain();
      osc.type = wave;
      osc.frequency.setValueAtTime(freq, t);
      amp.gain.setValueAtTime(gain, t);
      amp.gain.exponentialRampToValueAtTime(0.001, t + secs);
      osc.connect(amp).connect(context.destination);
      osc.start(t);
      osc.stop(t + secs);
      t += secs * 0.8;
    }
  },
};
window.banmenSound = sound;

// The newest move's sound, when a state brings new moves (not on opening a
// game, a take-back or a replay): check, else capture, else a plain move.
export function playSound(before, state) {
  const n = state.moves.length;
  if (n <= before.moves.length || state.moves[before.moves.length - 1] !== before.moves[before.moves.length - 1]) return;
  let kind = "move";
  if (state.position.in_check) kind = "check";
  else if (n === before.moves.length + 1) {
    // A capture: a square the move passes or ends on held a piece before it.
    const m = parseUsi(state.moves[n - 1]), board = before.position.board, files = before.position.files;
    const held = (sq) => { const x = sq.match(/^(\d+)([a-z])$/); return board[x[2].charCodeAt(0) - 97][files - Number(x[1])]; };
    if (!m.drop && m.squares.slice(1).some((sq) => sq !== m.from && held(sq))) kind = "capture";
  }
  try { sound.play(kind); } catch (e) { console.warn("sound", e); }
}
