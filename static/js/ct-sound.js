/* The table's sounds, synthesised in the browser with the Web Audio API (no sound files): the
 * deal, your turn, each of the last 5 seconds of your time, and a win. A mute switch is kept
 * per browser in localStorage ("ct-sound-muted"). Browsers start audio only after a gesture on
 * the page, so the audio context is made at the first click or key press; until then a sound
 * is still counted in `played` but not heard. `played` (the last 50 names asked for while not
 * muted) lets the browser tests see which sounds the page asked for. */
(function (root) {
  "use strict";
  var KEY = "ct-sound-muted";
  var MAX_PLAYED = 50;

  /* Each sound: notes of [frequency Hz, start s, length s, wave, peak gain]. */
  var SOUNDS = {
    deal: [[880, 0, 0.05, "triangle", 0.18], [660, 0.07, 0.05, "triangle", 0.16], [990, 0.14, 0.06, "triangle", 0.16]],
    turn: [[660, 0, 0.12, "sine", 0.22], [880, 0.13, 0.18, "sine", 0.22]],
    clock: [[1320, 0, 0.04, "square", 0.07]],
    win: [[523, 0, 0.12, "triangle", 0.2], [659, 0.11, 0.12, "triangle", 0.2], [784, 0.22, 0.12, "triangle", 0.2],
      [1047, 0.33, 0.32, "triangle", 0.22]]
  };

  var context = null;
  var played = [];

  function storage() {
    try { return root.localStorage; } catch (e) { return null; } // blocked storage: never muted
  }

  function muted() {
    var store = storage();
    return !!store && store.getItem(KEY) === "1";
  }

  function setMuted(value) {
    var store = storage();
    if (store) {
      try { store.setItem(KEY, value ? "1" : "0"); } catch (e) { /* full or private mode */ }
    }
  }

  function unlock() {
    var Ctx = root.AudioContext || root.webkitAudioContext;
    if (!context && Ctx) {
      try { context = new Ctx(); } catch (e) { context = null; }
    }
    if (context && context.state === "suspended") context.resume();
  }

  function tone(note, at) {
    var osc = context.createOscillator();
    var gain = context.createGain();
    var start = at + note[1], end = start + note[2];
    osc.type = note[3];
    osc.frequency.value = note[0];
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(note[4], start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    osc.connect(gain);
    gain.connect(context.destination);
    osc.start(start);
    osc.stop(end + 0.02);
  }

  /* Play a sound by name; false (and nothing counted) when muted or unknown. */
  function play(name) {
    if (!SOUNDS[name] || muted()) return false;
    played.push(name);
    if (played.length > MAX_PLAYED) played.shift();
    if (context && context.state === "running") {
      var at = context.currentTime + 0.01;
      SOUNDS[name].forEach(function (note) { tone(note, at); });
    }
    return true;
  }

  root.addEventListener("pointerdown", unlock, true);
  root.addEventListener("keydown", unlock, true);

  root.CT = root.CT || {};
  root.CT.sound = { play: play, muted: muted, setMuted: setMuted, played: played, names: Object.keys(SOUNDS) };
})(window);
