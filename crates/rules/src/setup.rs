//! A position as plain data ([`Setup`]): board, hands, side to move and move
//! number, not yet checked. Readers (SFEN, KIF diagrams, CSA `P` lines) build
//! one; [`Position::from_setup`] checks it and lists every reason it is not a
//! position (DESIGN.md: "Plain data, then a validated position").

use crate::bitboard::BitBoard;
use crate::piece::{Color, Piece};
use crate::position::{Hand, Position, MAX_HAND_KINDS};
use crate::rules::Rules;
use crate::sfen::{SfenError, SfenMode, SfenProblem};
use crate::square::{Geometry, Square};

/// A position as plain data: what stands where, what each side holds, whose
/// move it is and the move number. Nothing is checked until
/// [`Position::from_setup`].
///
/// ```
/// use banmen_rules::{rules_9x9, Color, Position, Setup, SfenMode, VariantName};
/// let rules = rules_9x9(VariantName::Shogi).unwrap();
/// let g = rules.geometry;
/// let mut setup = Setup::empty(g);
/// let king = rules.kind_by_code("K").unwrap();
/// let gold = rules.kind_by_code("G").unwrap();
/// setup.put(g.square(5, 8).unwrap(), Color::Black, king);
/// setup.put(g.square(5, 0).unwrap(), Color::White, king);
/// setup.hands[Color::Black.index()][gold.index()] = 1;
/// let pos = Position::from_setup(rules, &setup, SfenMode::Strict).unwrap();
/// assert_eq!(pos.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G 1");
/// assert_eq!(Setup::from_sfen(rules, &pos.to_sfen()).unwrap(), setup);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`] of the game's
    /// [`Geometry`] (`files * ranks` entries).
    pub board: Vec<Option<Piece>>,
    /// Pieces in hand per side ([`Color::index`]), counted by base kind.
    pub hands: [Hand; 2],
    /// The side to move.
    pub side: Color,
    /// The SFEN move number: the ply about to be played, counting from 1.
    pub move_number: u32,
}

impl Setup {
    /// An empty board of that size, empty hands, Black to move, move 1.
    pub fn empty(geometry: Geometry) -> Setup {
        Setup {
            board: vec![None; geometry.squares()],
            hands: [[0; MAX_HAND_KINDS]; 2],
            side: Color::Black,
            move_number: 1,
        }
    }

    /// Puts a piece of `color` and `kind` on `sq` (replacing what stood
    /// there); a square off the board is ignored.
    pub fn put(&mut self, sq: Square, color: Color, kind: crate::piece::Kind) {
        if let Some(slot) = self.board.get_mut(sq.index()) {
            *slot = Some(Piece { color, kind });
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.get(sq.index()).copied().flatten()
    }

    /// Whether each side has a king on the board (then a position is checked
    /// as a game's, else as a tsume problem's: see [`SfenMode`]).
    ///
    /// ```
    /// use banmen_rules::{rules_9x9, Setup, VariantName};
    /// let rules = rules_9x9(VariantName::Shogi).unwrap();
    /// assert!(Setup::from_sfen(rules, "startpos").unwrap().has_both_kings(rules));
    /// let tsume = Setup::from_sfen(rules, "4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    /// assert!(!tsume.has_both_kings(rules));
    /// ```
    pub fn has_both_kings<B: BitBoard>(&self, rules: &Rules<B>) -> bool {
        let Some(royal) = rules.royal else {
            return false;
        };
        Color::ALL.iter().all(|&c| {
            self.board
                .iter()
                .flatten()
                .any(|p| p.color == c && p.kind == royal)
        })
    }

    /// Reads an SFEN (or the keyword `startpos`) without checking the
    /// position it describes: only its syntax and the game's piece letters.
    ///
    /// # Errors
    /// Every syntax problem found, at once.
    pub fn from_sfen<B: BitBoard>(rules: &Rules<B>, sfen: &str) -> Result<Setup, SfenError> {
        let mut problems = Vec::new();
        match crate::sfen::parse_setup(rules, sfen, &mut problems) {
            Some(setup) if problems.is_empty() => Ok(setup),
            _ => Err(SfenError { problems }),
        }
    }

    /// Writes the setup as SFEN.
    pub fn to_sfen<B: BitBoard>(&self, rules: &Rules<B>) -> String {
        crate::sfen::write_sfen(
            rules,
            |sq| self.piece_at(sq),
            &self.hands,
            self.side,
            self.move_number,
        )
    }
}

impl<B: BitBoard> Position<B> {
    /// Checks a [`Setup`] and makes it a position.
    ///
    /// # Errors
    /// Every reason it is not one: a board of the wrong size, kinds or hand
    /// pieces the game does not have, and then what SFEN validation finds
    /// (kings, dead pieces, nifu, counts, the side not to move in check).
    pub fn from_setup(
        rules: &'static Rules<B>,
        setup: &Setup,
        mode: SfenMode,
    ) -> Result<Self, SfenError> {
        Position::build_checked(rules, setup, mode, Vec::new())
    }

    /// [`Self::build`], then the position if neither it nor the reading
    /// before (`problems`) found anything wrong, else every problem.
    pub(crate) fn build_checked(
        rules: &'static Rules<B>,
        setup: &Setup,
        mode: SfenMode,
        mut problems: Vec<SfenProblem>,
    ) -> Result<Self, SfenError> {
        let pos = Position::build(rules, setup, mode, &mut problems);
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(SfenError { problems })
        }
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        let g = self.rules.geometry;
        Setup {
            board: g.all().map(|sq| self.piece_at(sq)).collect(),
            hands: self.hands,
            side: self.side,
            move_number: self.move_number,
        }
    }

    /// Puts `setup` on a board, pushing a problem for everything that does
    /// not fit the game, then validates (pushing more).
    pub(crate) fn build(
        rules: &'static Rules<B>,
        setup: &Setup,
        mode: SfenMode,
        problems: &mut Vec<SfenProblem>,
    ) -> Self {
        let g = rules.geometry;
        let mut pos = Position::empty(rules);
        if setup.board.len() != g.squares() {
            problems.push(SfenProblem::BoardSize {
                expected: g.squares(),
                found: setup.board.len(),
            });
        }
        for (sq, piece) in g.all().zip(setup.board.iter()) {
            if let Some(p) = *piece {
                if p.kind.index() < rules.kind_count() {
                    pos.put(p, sq);
                } else {
                    problems.push(SfenProblem::UnknownPiece(format!("kind {}", p.kind.0)));
                }
            }
        }
        let holds = setup.hands.iter().flatten().any(|&n| n > 0);
        if holds && !rules.variant.drops {
            problems.push(SfenProblem::HandWithoutDrops);
        }
        for c in Color::ALL {
            for (k, &n) in setup.hands[c.index()].iter().enumerate() {
                if n == 0 || !rules.variant.drops {
                    continue;
                }
                let holdable = k < rules.n_base && !rules.kinds[k].royal;
                if holdable {
                    pos.hands[c.index()][k] = n;
                } else {
                    let what = rules.kinds.get(k).map_or(k.to_string(), |i| i.code.clone());
                    problems.push(SfenProblem::BadHand(format!("'{what}' cannot be in hand")));
                }
            }
        }
        pos.side = setup.side;
        if setup.move_number == 0 {
            problems.push(SfenProblem::BadMoveNumber("0".into()));
        } else {
            pos.move_number = setup.move_number;
        }
        pos.validate(mode, problems);
        pos.hash = pos.compute_hash();
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{rules_17x17_with, rules_9x9};
    use crate::variant::VariantName;

    #[test]
    fn a_setup_round_trips_through_sfen_and_position() {
        let rules = rules_9x9(VariantName::Shogi).expect("shogi");
        let sfen = "lnsgkgsnl/1r5b1/pppppp1pp/9/9/9/PP1PPPPPP/1B5R1/LNSGKGSNL w Pp 2";
        let setup = Setup::from_sfen(rules, sfen).expect("syntax");
        assert_eq!(setup.to_sfen(rules), sfen);
        let pos = Position::from_setup(rules, &setup, SfenMode::Strict).expect("legal");
        assert_eq!(pos.to_sfen(), sfen);
        assert_eq!(pos.to_setup(), setup);
    }

    #[test]
    fn a_setup_is_refused_with_typed_reasons() {
        let rules = rules_9x9(VariantName::Shogi).expect("shogi");
        let mut setup = Setup::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 b - 1").expect("syntax");
        setup.board.pop();
        let king = rules.kind_by_code("K").expect("king");
        setup.hands[0][king.index()] = 1;
        setup.move_number = 0;
        let problems = Position::from_setup(rules, &setup, SfenMode::Strict)
            .expect_err("bad")
            .problems;
        assert_eq!(
            problems[..3],
            [
                SfenProblem::BoardSize {
                    expected: 81,
                    found: 80
                },
                SfenProblem::BadHand("'K' cannot be in hand".into()),
                SfenProblem::BadMoveNumber("0".into()),
            ]
        );
        // Syntax problems stop at the setup; position problems need a position.
        assert!(Setup::from_sfen(rules, "4k4/9/9/9/9/9/9/9/4K4 x - 1").is_err());
        assert!(Setup::from_sfen(rules, "4k4/9/9/9/9/9/9/9/9 b - 1").is_ok());
    }

    #[test]
    fn a_hand_in_a_game_without_drops_is_one_problem() {
        let rules = rules_17x17_with(VariantName::DaiDaiShogi, "").expect("dai dai");
        let mut setup = Setup::from_sfen(rules, "startpos").expect("start");
        setup.hands[0][0] = 1;
        setup.hands[1][1] = 2;
        let problems = Position::from_setup(rules, &setup, SfenMode::Strict)
            .expect_err("no drops")
            .problems;
        assert_eq!(problems, [SfenProblem::HandWithoutDrops]);
    }
}
