// The sounds of the game, made in the browser with the Web Audio API (no sound files): a move,
// a capture, a check and the end of a game, each a few short tones. They can be switched off in
// the settings, and the choice is remembered (localStorage).

/** Each sound: its tones, `[frequency Hz, start s, length s, loudness 0-1, wave]`. */
export const SOUNDS = {
  // A light wooden knock.
  move: [[440, 0, 0.09, 0.5, 'triangle']],
  // Two lower, louder knocks: a piece taken off the board.
  capture: [[330, 0, 0.08, 0.7, 'triangle'], [247, 0.06, 0.12, 0.7, 'triangle']],
  // A falling two-tone call: 将军.
  check: [[880, 0, 0.12, 0.35, 'square'], [660, 0.13, 0.16, 0.35, 'square']],
  // A rising chord: the game is over.
  end: [[523, 0, 0.4, 0.3, 'sine'], [659, 0.1, 0.4, 0.3, 'sine'], [784, 0.2, 0.5, 0.3, 'sine']],
};

/** The pieces on the board of a FEN. */
function pieces(fen) {
  return fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;
}

/** Which sound a move makes: from the position before it to `after` (the API's position). */
export function soundOf(fenBefore, fenAfter, { check = false, over = false } = {}) {
  if (over) return 'end';
  if (check) return 'check';
  return pieces(fenAfter) < pieces(fenBefore) ? 'capture' : 'move';
}

export class Sounds {
  constructor() {
    this.on = localStorage.getItem('chariot.sounds') !== 'off';
    this.context = null;
  }

  /** Switches the sounds on or off, and remembers it. */
  setOn(on) {
    this.on = on;
    localStorage.setItem('chariot.sounds', on ? 'on' : 'off');
  }

  /** Plays a sound of `SOUNDS` (nothing when the sounds are off or the browser has no audio). */
  play(name) {
    const tones = SOUNDS[name];
    if (!this.on || !tones) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    // Made on the first sound, which follows a click or a key (browsers let a page play sound
    // once the person has done something on it).
    if (!this.context) this.context = new Context();
    if (this.context.state === 'suspended') this.context.resume();
    const now = this.context.currentTime;
    for (const [frequency, start, length, loudness, wave] of tones) {
      const oscillator = this.context.createOscillator();
      const gain = this.context.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      // A quick attack and an exponential fall: a knock, not a beep.
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(loudness * 0.4, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      oscillator.connect(gain).connect(this.context.destination);
      oscillator.start(now + start);
      oscillator.stop(now + start + length + 0.02);
    }
  }
}
