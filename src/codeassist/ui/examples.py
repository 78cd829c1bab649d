"""Example questions, by who is asking. Plain interface copy: the answers come from the Assistant."""

EXAMPLES: dict[str, list[str]] = {
    "Resident": [
        "Do I need a permit to replace a light switch in my house in Tuckahoe?",
        "I'm paving a 3,000 sq ft driveway in Hempstead. Do I need a stormwater plan?",
        "What does impervious cover mean?",
    ],
    "Contractor": [
        "How often do erosion control inspection reports have to be done during construction?",
        "When do I have to notify the village before a construction milestone in Tuckahoe?",
        "What is the fine for a second stormwater violation within five years in Hempstead?",
    ],
    "Staff": [
        "Who may prepare and sign a SWPPP in the Town of Hempstead?",
        "Which activities may be exempt from erosion and sediment control review in Tuckahoe?",
        "Compare stop-work orders in Hempstead and Tuckahoe.",
    ],
}
