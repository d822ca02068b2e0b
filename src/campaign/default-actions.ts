/**
 * The built-in actions every campaign has unless its actions.yaml says
 * `defaults: false`: the rules' diplomatic actions (espionage, sabotage,
 * spreading religion, trade), written in the catalogue's own words so a GM
 * can read them, copy one into actions.yaml and change it. docs/rules.md D1-D5
 * give the readings behind the numbers.
 */
export const DEFAULT_ACTIONS_YAML = `
actions:
  - id: espionage
    name: Espionage
    verb: spies on
    units: { class: diplomatic }
    target: [nation, settlement, hex]
    whose: foreign
    range: 3
    roll:
      beat: 3
      great_by: 2
      modifiers:
        - { value: -1, when: { units_near: { within: 2, whose: own, class: diplomatic } } }
        - { value: -1, when: { units_near: { within: 2, whose: own, class: diplomatic, min: 3 } } }
        - { value: -1, when: { has_level: capital } }
    success:
      actor: [{ reveal: renown_fate }, { reveal: { what: units, within: 2 } }]
    great:
      actor: [{ reveal: renown_fate }, { reveal: { what: units, within: 2 } }, { reveal: work }, { reveal: goal }]
    fail:
      target: [{ catch: 4 }]
    noticed: [fail]
    named: [fail]

  - id: sabotage
    name: Sabotage
    verb: sabotages
    units: { class: diplomatic }
    target: settlement
    whose: foreign
    range: 1
    roll:
      beat: 4
      great_by: 2
      modifiers:
        - { value: -1, when: { units_near: { within: 1, whose: own, class: diplomatic } } }
        - { value: -1, when: { units_near: { within: 0, whose: own, min: 3 } } }
    success:
      target: [{ damage: { delay: 1 } }]
    great:
      target: [{ damage: { delay: 2 } }]
    noticed: [fail, success, great]
    named: [fail]

  - id: preach
    name: Preaching
    verb: preaches in
    units: { class: diplomatic }
    target: settlement
    whose: own
    range: 0
    roll:
      beat: 3
    success:
      target: [{ happiness: 1 }]
    great:
      target: [{ happiness: 1 }, { fate: 1 }]

  - id: proselytise
    name: Spreading the faith
    verb: preaches in
    units: { class: diplomatic }
    target: settlement
    whose: foreign
    range: 0
    roll:
      beat: 4
    success:
      target: [{ happiness: -1 }]
    great:
      target: [{ happiness: -1 }]
      actor: [{ fate: 1 }]
    noticed: [fail, success, great]
    named: [fail, success, great]

  - id: trade
    name: Trade route
    verb: opens trade between
    units: { class: diplomatic }
    target: route
    whose: any
    range: 0
    length: 12
    income: 2
    success:
      target: [{ trade_route: ~ }]
`;
