export var Notation;
(function (Notation) {
    Notation[Notation["ALGEBRAIC"] = 0] = "ALGEBRAIC";
    Notation[Notation["SHOGI_ENGLET"] = 1] = "SHOGI_ENGLET";
    Notation[Notation["SHOGI_ARBNUM"] = 2] = "SHOGI_ARBNUM";
    Notation[Notation["SHOGI_HANNUM"] = 3] = "SHOGI_HANNUM";
    Notation[Notation["JANGGI"] = 4] = "JANGGI";
    Notation[Notation["XIANGQI_ARBNUM"] = 5] = "XIANGQI_ARBNUM";
    Notation[Notation["XIANGQI_HANNUM"] = 6] = "XIANGQI_HANNUM";
    Notation[Notation["THAI_ALGEBRAIC"] = 7] = "THAI_ALGEBRAIC";
})(Notation || (Notation = {}));
export const colors = ['white', 'black'];
export const sides = ['ally', 'enemy'];
export const files = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p'];
export const ranks = ['1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', '@'];
export const letters = [
    'a',
    'b',
    'c',
    'd',
    'e',
    'f',
    'g',
    'h',
    'i',
    'j',
    'k',
    'l',
    'm',
    'n',
    'o',
    'p',
    'q',
    'r',
    's',
    't',
    'u',
    'v',
    'w',
    'x',
    'y',
    'z',
];
