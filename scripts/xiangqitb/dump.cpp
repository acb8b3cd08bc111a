// Prints every position of one xiangqitb WDL table with its value, one per line:
// "BOARD w|b W|D|L", for scripts/xiangqitb/compare.py to check against Chariot's tables.
//
// Built against an xiangqitb checkout by build.sh (xiangqitb is not part of this repository).
// Usage: dump WDL_DIR TMP_DIR NAME (NAME in xiangqitb's spelling, e.g. KRKAN).
//
// Indices whose pieces share a square are skipped; every other index is printed, including
// positions Chariot does not count as legal (the side not to move in check, facing generals),
// which xiangqitb's file stores as don't-care values and compare.py leaves out.
#include "chess/attack.h"
#include "chess/chess.h"
#include "chess/piece_config.h"
#include "egtb/egtb.h"
#include "egtb/egtb_gen.h"

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char* argv[])
{
	if (argc != 4)
	{
		std::fprintf(stderr, "usage: dump WDL_DIR TMP_DIR NAME\n");
		return 2;
	}
	try
	{
		init_possible();
		attack_init();
		EGTB_Paths paths;
		paths.add_wdl_path(argv[1]);
		paths.set_tmp_path(argv[2]);
		const Piece_Config ps{ std::string(argv[3]) };
		const Piece_Config_For_Gen epsi(ps);
		// A table whose two sides have the same material keeps Red to move only.
		const bool symmetric = ps.material_keys().first == ps.material_keys().second;
		const WDL_File_For_Probe wdl(paths, ps, false);
		char fen[MAX_FEN_LENGTH];
		for (const Color me : { WHITE, BLACK })
		{
			if (symmetric && me == BLACK)
				break;
			for (size_t n = 0; n < epsi.num_positions(); ++n)
			{
				const Board_Index i = static_cast<Board_Index>(n);
				const WDL_Entry e = wdl.read(me, i);
				if (e == WDL_Entry::ILLEGAL)
					continue;
				const Position_For_Gen pos(epsi, i, me);
				if (!pos.is_legal())
					continue;
				pos.get_fen(Span(fen));
				const char* v = e == WDL_Entry::WIN ? "W" : e == WDL_Entry::LOSE ? "L" : "D";
				std::printf("%s %s\n", fen, v);
			}
		}
	}
	catch (const std::exception& e)
	{
		std::fprintf(stderr, "dump: %s: %s\n", argv[3], e.what());
		return 1;
	}
	return 0;
}
