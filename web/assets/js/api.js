// The JSON API (docs/web-api.md), one function per request. Every failure throws an Error
// whose message is the server's `error` text, `status` the HTTP status, and `code` and `params`
// the error's code and parameters (errors.js says them in the page's language).

/** The Error of a failed answer. */
export async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  let code = null;
  let params = {};
  try {
    const body = await response.json();
    message = body.error || message;
    code = body.code || null;
    params = body.params || {};
  } catch { /* not JSON */ }
  const error = new Error(message);
  error.status = response.status;
  error.code = code;
  error.params = params;
  return error;
}

export async function call(method, path, body, raw = false) {
  const init = { method, headers: {} };
  if (body instanceof Blob || body instanceof ArrayBuffer) {
    init.body = body;
    init.headers['content-type'] = 'application/octet-stream';
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  if (raw || response.status === 204) return response;
  return response.json();
}

export const levels = () => call('GET', '/api/levels');
export const newGame = (setup) => call('POST', '/api/play', setup);
export const showGame = (id) => call('GET', `/api/play/${id}`);
/** A move in game `id`, made on the game as it was after `at` moves (the server refuses it when
 * the game has moved on since, in another tab). */
export const playMove = (id, move, at) => call('POST', `/api/play/${id}/moves`, { move, at });
export const takeBack = (id, at) => call('POST', `/api/play/${id}/takeback`, { at });
export const resign = (id) => call('POST', `/api/play/${id}/resign`, {});
export const offerDraw = (id) => call('POST', `/api/play/${id}/draw`, {});
export const hint = (id) => call('POST', `/api/play/${id}/hint`, {});
export const closeGame = (id) => call('DELETE', `/api/play/${id}`, undefined, true);
/** The address of a game's PGN: moves in `notation`, words in `lang` (`en` or `zh`). */
export const pgnUrl = (id, notation, lang) => `/api/play/${id}/pgn?notation=${notation}&lang=${lang}`;

/** A position: `fen` and the moves played from it (ICCS). */
export const position = (fen, moves = []) =>
  call('GET', `/api/position?fen=${encodeURIComponent(fen)}&moves=${encodeURIComponent(moves.join(' '))}`);

/** The games of a game file (its bytes). */
export const readFile = (bytes) => call('POST', '/api/read', bytes);

/** The URL of the analysis stream of a position; `seconds` a number or `infinite` (until closed). */
export const analysisUrl = (fen, moves, multipv, seconds) =>
  `/api/analysis?fen=${encodeURIComponent(fen)}&moves=${encodeURIComponent(moves.join(' '))}` +
  `&multipv=${multipv}&seconds=${seconds}`;

/** The books' moves of a position (every configured book). */
export const book = (fen, moves = []) =>
  call('GET', `/api/book?fen=${encodeURIComponent(fen)}&moves=${encodeURIComponent(moves.join(' '))}`);

/** The tables' value of a position and of every move (404 when not covered). */
export const tablebase = (fen, moves = []) =>
  call('GET', `/api/tablebase?fen=${encodeURIComponent(fen)}&moves=${encodeURIComponent(moves.join(' '))}`);

/** The tables the server has, and one material's page (`KRKAABB`). */
export const tablebases = () => call('GET', '/api/tablebases');
export const tablebasePage = (material) => call('GET', `/api/tablebases/${encodeURIComponent(material)}`);

/** The games of the game database through a position: `filters` as the API names them. */
export const games = (fen, moves, filters, offset, limit) => {
  const params = new URLSearchParams({ fen, moves: moves.join(' '), ...filters, offset, limit });
  return call('GET', `/api/games?${params}`);
};

/** Imports a game file (a File or Blob) into the game database: the job. */
export const importGames = (file, name) =>
  call('POST', `/api/games?name=${encodeURIComponent(name)}`, file);

/** A job (an import, a book compilation): where it stands. */
export const job = (id) => call('GET', `/api/jobs/${encodeURIComponent(id)}`);

/** Starts compiling a book from the games `filters` select: the job. */
export const compileBook = (request) => call('POST', '/api/books', request);

/** Every book of the server: the configured ones and those compiled in the browser. */
export const books = () => call('GET', '/api/books');

/** The games played on this server, newest first (`limit` of them from `offset`). */
export const played = (offset, limit) => call('GET', `/api/played?offset=${offset}&limit=${limit}`);

/** One game played on this server, and its PGN's address. */
export const playedGame = (id) => call('GET', `/api/played/${id}`);
export const playedGameUrl = (id) => `/api/played/${id}.pgn`;

/** One stored game, and its PGN's address. */
export const storedGame = (id) => call('GET', `/api/games/${id}`);
export const storedGameUrl = (id) => `/api/games/${id}.pgn`;
