//! The tables the API hands out and takes: unit views, commands, events, declarations
//! (docs/guide.md). Event classes follow `crate::engine::Event`, field for field.

use super::{ClassDoc, FieldDoc};

/// Named unions: `(name, type, description)`.
pub(super) const ALIASES: &[(&str, &str, &str)] = &[
    (
        "hexwar.MoveClass",
        "\"army\"|\"fleet\"",
        "An area board's movement class.",
    ),
    (
        "hexwar.Facing",
        "integer|string",
        "A facing: an edge or vertex 0-5, `\"f1,f2\"` for a two-base unit, `\"none\"` for leaders.",
    ),
];

const fn event(name: &'static str, doc: &'static str, fields: &'static [FieldDoc]) -> ClassDoc {
    ClassDoc {
        name,
        parent: Some("hexwar.Event"),
        doc,
        fields,
    }
}

pub(super) const CLASSES: &[ClassDoc] = &[
    ClassDoc {
        name: "hexwar.Unit",
        parent: None,
        doc: "A read-only view of a unit (a fresh table).",
        fields: &[
            "id: string -- The unit's id.",
            "side: string -- The side it plays for.",
            "nation: string -- Its nation (may be empty).",
            "type: string -- Its type (`infantry`, `armor`, ...).",
            "size: string -- Its size (`XX`, ...; may be empty).",
            "ma: number -- Movement allowance in MP.",
            "strength: number -- Combat strength.",
            "at?: string -- The hex or region it is in (nil when off the map).",
            "facing?: integer -- Its facing, in facing games.",
            "status: table<string, boolean> -- Its status flags (`status.disorganized == true`).",
            "attrs: table<string, any> -- The scenario's extra attributes.",
        ],
    },
    ClassDoc {
        name: "hexwar.GoneUnit",
        parent: Some("hexwar.Unit"),
        doc: "A unit out of play (`hex.units.gone()`).",
        fields: &[
            "gone_reason: string -- Why it left play.",
            "eliminated: boolean -- Whether it counts as eliminated (false: removed).",
            "gone_turn: integer -- The turn it left play.",
        ],
    },
    ClassDoc {
        name: "hexwar.Refusal",
        parent: None,
        doc: "A refusal (`hex.refuse`): the rule clause and why.",
        fields: &[
            "rule: string -- The clause id (`DEMO-1`).",
            "reason: string -- Why, for the player.",
        ],
    },
    ClassDoc {
        name: "hexwar.Command",
        parent: None,
        doc: "A command, a flat table: `command` names it, the other keys are its arguments.",
        fields: &[
            "command: string -- `move`, `end_phase`, or a command the rules define.",
            "[string]: any -- The command's arguments (`unit`, `path`, ...).",
        ],
    },
    ClassDoc {
        name: "hexwar.CommandDef",
        parent: None,
        doc: "A command definition (`hex.commands.define`).",
        fields: &[
            "resolve: fun(cmd: hexwar.Command, side: string?): hexwar.Event[]|hexwar.Refusal -- The command's events, or a refusal.",
            "legal?: fun(side: string, filter?: table): hexwar.Command[] -- Every legal command of this kind for the side, now (bots choose among them); `filter` (`{command = ..., unit = ...}`, optional) asks for fewer.",
            "args?: string[]|table<string, string> -- The arguments the command takes, besides `command`: their names, or a table of their kinds (`{unit = \"unit\", to = \"place\", note = \"string?\"}`: unit, place, string, units, places, path, strings, number, integer, boolean, list, table, any, direction; `?` optional). The host refuses any other argument, and with kinds a missing or misfit one, before `resolve` runs (rule `command`). Without it the command takes any.",
        ],
    },
    ClassDoc {
        name: "hexwar.Step",
        parent: None,
        doc: "A step of the sequence of play.",
        fields: &[
            "side?: string -- The phasing side (nil: simultaneous).",
            "phase: string -- The phase's name.",
        ],
    },
    ClassDoc {
        name: "hexwar.Sequence",
        parent: None,
        doc: "The sequence of play (`hex.rules.sequence`).",
        fields: &[
            "steps: hexwar.Step[] -- An ordinary turn.",
            "special?: table<integer, hexwar.Step[]> -- Turns that differ, by turn number.",
        ],
    },
    ClassDoc {
        name: "hexwar.Outcome",
        parent: None,
        doc: "The victory rule's answer.",
        fields: &[
            "winner?: string -- The winning side (nil: a draw).",
            "scores: table<string, number> -- Each side's score ({} when there are none).",
            "reason: string -- Why, for the players.",
        ],
    },
    ClassDoc {
        name: "hexwar.ReachOptions",
        parent: None,
        doc: "Options of `hex.path.reach`.",
        fields: &[
            "paths?: boolean -- Answer each hex with its cost and path.",
            "blocked?: string[] -- Hexes the search never enters (the rules' own prohibitions).",
        ],
    },
    ClassDoc {
        name: "hexwar.FacingOptions",
        parent: None,
        doc: "Options of the facing searches.",
        fields: &[
            "paths?: boolean -- Answer each facing with its cost and path.",
            "contact_turn?: boolean -- Allow the facing change a unit in contact may make.",
        ],
    },
    ClassDoc {
        name: "hexwar.ReachEntry",
        parent: None,
        doc: "A reachable hex with `paths = true`.",
        fields: &[
            "cost: number -- The MP cost.",
            "path: string[] -- The hexes entered, in order.",
        ],
    },
    ClassDoc {
        name: "hexwar.SupplySource",
        parent: None,
        doc: "A set of supply sources (`hex.path.supply`).",
        fields: &[
            "side: string -- The side they supply.",
            "nations?: string[] -- Only units of these nations (default: all of the side).",
            "hexes: string[] -- The source hexes.",
        ],
    },
    ClassDoc {
        name: "hexwar.Region",
        parent: None,
        doc: "A region of an area board.",
        fields: &[
            "id: string -- Its id (`\"PAR\"`).",
            "name: string -- Its full name.",
            "type: string -- `land`, `coast`, `sea` or `impassable`.",
            "supply_center: boolean -- Whether it is a supply centre.",
            "home?: string -- The power whose home centre it is.",
            "coasts: string[] -- Its named coasts (`\"nc\"`, `\"sc\"`).",
            "attrs: table<string, any> -- The map's `[region.attrs]` for it: the designer's own data (a continent, a bonus), empty when none.",
        ],
    },
    ClassDoc {
        name: "hexwar.Power",
        parent: None,
        doc: "A power of an area board.",
        fields: &[
            "name: string -- Its name.",
            "adjective: string -- Its adjective.",
            "home_centers: string[] -- Its home centres.",
            "start_units: string[] -- Its starting units (`\"A PAR\"`).",
            "start_centers: string[] -- The centres it owns at the start.",
        ],
    },
    ClassDoc {
        name: "hexwar.Province",
        parent: None,
        doc: "A region in `hex.map.board_table()`.",
        fields: &[
            "name: string -- Its full name.",
            "type: string -- `land`, `coast` or `sea`.",
            "supply_center: boolean -- Whether it is a supply centre.",
            "home?: string -- The power whose home centre it is.",
            "army: string[] -- Where an army may move from here.",
            "fleet: string[] -- Where a fleet may move from here.",
            "coasts: string[] -- Its named coasts.",
            "fleet_by_coast?: table<string, string[]> -- Where a fleet on each coast may move.",
        ],
    },
    ClassDoc {
        name: "hexwar.BoardTable",
        parent: None,
        doc: "An area board as one plain table (`hex.map.board_table()`).",
        fields: &[
            "name: string -- The map's name.",
            "start_phase?: string -- The phase the game starts in.",
            "victory_centers?: integer -- The centres that win.",
            "provinces: table<string, hexwar.Province> -- Every region, by id.",
            "powers: hexwar.Power[] -- The powers, in map order.",
        ],
    },
    ClassDoc {
        name: "hexwar.Event",
        parent: None,
        doc: "An event: `event` names its kind; the other fields depend on it (the classes below).",
        fields: &[
            "event: string -- The kind (`UnitMoved`, ...).",
            "[string]: any -- The kind's fields.",
        ],
    },
    event(
        "hexwar.GameStarted",
        "The game began.",
        &[
            "scenario: string -- The scenario id.",
            "seed: integer -- The seed.",
        ],
    ),
    event(
        "hexwar.PhaseStarted",
        "A step of the sequence began.",
        &[
            "turn: integer",
            "step: integer -- The step's index in the turn.",
            "side?: string -- The phasing side.",
            "phase: string",
        ],
    ),
    event(
        "hexwar.PhaseEnded",
        "A step ended.",
        &[
            "turn: integer",
            "step: integer",
            "side?: string",
            "phase: string",
        ],
    ),
    event(
        "hexwar.PhaseSkipped",
        "A step was passed over (`hex.rules.skip`).",
        &[
            "turn: integer",
            "step: integer",
            "side?: string",
            "phase: string",
        ],
    ),
    event(
        "hexwar.UnitMoved",
        "A unit moved.",
        &[
            "unit: string",
            "from?: string -- Where it was (nil: off the map).",
            "to: string",
            "path: string[] -- The hexes entered.",
            "cost: number -- The MP spent.",
        ],
    ),
    event(
        "hexwar.UnitEnteredHex",
        "A unit entered a hex on its way.",
        &["unit: string", "hex: string"],
    ),
    event(
        "hexwar.UnitEliminated",
        "A unit was eliminated.",
        &["unit: string", "reason: string"],
    ),
    event(
        "hexwar.UnitRemoved",
        "A unit left play without counting as eliminated.",
        &["unit: string", "reason: string"],
    ),
    event(
        "hexwar.UnitPlaced",
        "A unit entered play.",
        &["unit: hexwar.Unit -- The whole unit."],
    ),
    event(
        "hexwar.UnitStatusChanged",
        "Status flags were set or cleared.",
        &[
            "unit: string",
            "add?: string[] -- Flags set.",
            "remove?: string[] -- Flags cleared.",
        ],
    ),
    event(
        "hexwar.UnitChanged",
        "A unit's strength, movement allowance or attributes changed (a step loss); what it leaves out stays.",
        &[
            "unit: string",
            "strength?: number -- The new strength.",
            "ma?: number -- The new movement allowance.",
            "attrs?: table<string, any> -- Attributes set (the others stay).",
        ],
    ),
    event(
        "hexwar.UnitFacingChanged",
        "A unit changed facing.",
        &[
            "unit: string",
            "facing: integer",
            "facing2?: integer -- A two-base unit's second facing.",
        ],
    ),
    event(
        "hexwar.UnitSideChanged",
        "A unit changed sides.",
        &["unit: string", "side: string"],
    ),
    event(
        "hexwar.ControlChanged",
        "A hex (or region) changed control.",
        &[
            "hex: string",
            "side?: string -- The new controller (nil: nobody).",
        ],
    ),
    event(
        "hexwar.HexChanged",
        "A hex's terrain or features changed during play (a fort built, a polder flooded); what it leaves out stays.",
        &[
            "hex: string",
            "terrain?: string -- The new terrain.",
            "add?: string[] -- Features the hex gains.",
            "remove?: string[] -- Features the hex loses.",
        ],
    ),
    event(
        "hexwar.HexsideChanged",
        "The features of a hexside changed during play (a bridge blown).",
        &[
            "hexside: string[] -- The two adjacent hexes.",
            "add?: string[] -- Features the hexside gains.",
            "remove?: string[] -- Features the hexside loses.",
        ],
    ),
    event(
        "hexwar.VarSet",
        "A rules variable was set.",
        &["key: string", "value: any"],
    ),
    event(
        "hexwar.DiceRolled",
        "A die was rolled (`hex.dice.roll`).",
        &["sides: integer", "value: integer"],
    ),
    event(
        "hexwar.CommandRefused",
        "A command was refused (logged only).",
        &[
            "side?: string",
            "command: hexwar.Command",
            "rule: string",
            "reason: string",
        ],
    ),
    event(
        "hexwar.GameEnded",
        "The game ended.",
        &[
            "winner?: string",
            "scores: table<string, number>",
            "reason: string",
        ],
    ),
    event(
        "hexwar.Custom",
        "A custom event (`hex.events.emit`).",
        &["name: string", "data: any"],
    ),
];
