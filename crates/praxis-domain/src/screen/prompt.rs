//! Prompt overrides: text phrased as an instruction to the agent that
//! later reads the record.

use std::sync::LazyLock;

use regex::RegexSet;

/// Instruction phrasings, matched in one pass.
static PROMPT_OVERRIDE: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        // "ignore all previous instructions", "disregard the system prompt"
        r"(?i)\b(?:ignore|disregard|forget|discard|skip)\s+(?:(?:all|any|every|the|your|my|of|these|those|everything|anything)\s+){0,3}(?:(?:previous|prior|above|earlier|preceding|foregoing|former|original|initial|existing|system|developer|safety|current|old)\s+){1,2}(?:\w+\s+)?(?:instructions?|prompts?|directives?|guidelines|guardrails|context|programming|constraints)\b",
        r"(?i)\b(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:your|the\s+(?:previous|prior|above|earlier))\s+(?:\w+\s+){0,2}?(?:rules|instructions|guidelines|programming|training|restrictions|policies|principles)\b",
        r"(?i)\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before\s+this|previously)",
        // "override your safety guidelines", "bypass your restrictions"
        r"(?i)\b(?:override|bypass|circumvent|ignore|disregard|suspend|lift)\s+(?:all\s+(?:of\s+)?)?your\s+(?:own\s+)?(?:\w+\s+){0,2}?(?:safety|ethics?|ethical|moderation|guardrails?|restrictions?|content\s+(?:policy|policies|filters?)|filters?|guidelines|rules|instructions|programming|alignment|principles|limitations)\b",
        r"(?i)\b(?:override|overwrite|replace)\s+(?:the|your)\s+(?:system|developer)\s+(?:prompt|message|instructions)",
        // "you are now DAN", "you are now an unrestricted assistant"
        r"(?i)\byou\s+are\s+now\s+(?:(?:a|an|the|my|our)\s+(?:[\w-]+\s+){0,3}?(?:assistant|ai|model|chatbot|bot|persona|character|hacker|attacker|villain)\b|(?:in\s+)?(?:developer|god|admin|jailbreak|dan|unrestricted|unfiltered|uncensored|evil)\s+mode\b|(?:free|unrestricted|unfiltered|uncensored|jailbroken|unbound|unchained|liberated)\b|no\s+longer\s+(?:bound|restricted|limited|constrained|an?\s+(?:ai|assistant|language\s+model))|dan\b)",
        // "New instructions:", "your real instructions are"
        r"(?i)\bnew\s+(?:system\s+)?instructions?\s*:",
        r"(?i)\b(?:as|here\s+are|these\s+are|follow)\s+your\s+(?:new|real|updated|actual|true)\s+instructions\b",
        r"(?i)\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+(?:of\s+)?)?(?:its|their)\s+(?:own\s+)?(?:\w+\s+)?(?:guidelines|instructions|programming|training|guardrails|safety\s+\w+|system\s+prompt)\b",
        r"(?i)\b(?:your|the)\s+(?:new|real|true|actual|hidden|secret)\s+instructions\s+(?:are|follow)\b",
        // asking for the system prompt
        r"(?i)\b(?:reveal|repeat|recite|leak|divulge)\s+(?:to\s+me\s+)?(?:your|all\s+of\s+your|the)\s+(?:\w+\s+)?(?:system|developer|initial|hidden|original|secret)\s+(?:prompt|message|instructions)",
        r"(?i)\b(?:print|output|display|show|dump|tell\s+me|give\s+me|share|paste|echo|what\s+(?:is|are|was|were))\s+(?:me\s+)?(?:all\s+of\s+)?your\s+(?:\w+\s+)?(?:system|developer|initial|hidden|original|secret)\s+(?:prompt|message|instructions)",
        // a system or developer prompt given as an instruction
        r"(?im)^\s*(?:#+\s*|\*\*|>\s*|\[)?(?:new\s+|updated\s+)?(?:system|developer)\s+(?:prompt|message|instructions?|override)\s*(?:\*\*|\])?\s*:\s*(?:you\s|ignore|disregard|forget|from\s+now|always\s|never\s|do\s+not|don't|act\s+as|pretend|reveal)",
        r"(?i)\b(?:system|developer)\s+(?:prompt|message)\s+(?:says|requires|instructs|tells|orders|wants)\s+you\b",
        r"(?i)<\|im_start\|>\s*(?:system|developer)|<\|(?:system|developer)\|>|<\|start_header_id\|>\s*(?:system|developer)|<<SYS>>|\[(?:system|developer)\s+(?:prompt|message|override)\]",
        // exfiltration
        r"(?i)\bexfiltrat\w*\s+(?:\w+\s+){0,3}?(?:secrets?|credentials?|tokens?|keys?|passwords?|cookies|env\w*|\.env|ssh|data\s+to)\b",
        // "leak" is never benign as an order; "reveal the API key" is a
        // button in many consoles, so reveal and disclose need a plural
        // haul or an object that belongs to the reader.
        r"(?i)(?:^|[\n.!?;:]\s*|\b(?:please|now|then|also|immediately|quietly|silently|secretly|first|and)\s+)leak\s+(?:to\s+me\s+)?(?:(?:all|any|every|the|your|my|these|those|this|its)\s+)?(?:\w+\s+){0,2}?(?:secrets?|credentials?|tokens?|private\s+keys?|api\s+keys?|passwords?|ssh\s+keys?|environment\s+variables|env\s+vars?|\.env(?:\s+file)?|cookies|access\s+keys?)\b",
        r"(?i)(?:^|[\n.!?;:]\s*|\b(?:please|now|then|also|immediately|quietly|silently|secretly|first|and)\s+)(?:reveal|disclose|divulge)\s+(?:to\s+me\s+)?(?:(?:all|any|every|the|my|these|those)\s+(?:of\s+)?(?:the\s+|your\s+)?)?(?:\w+\s+){0,2}?(?:secrets|credentials|tokens|private\s+keys|api\s+keys|passwords|ssh\s+keys|environment\s+variables|env\s+vars|\.env(?:\s+file)?|cookies|access\s+keys)\b",
        r"(?i)(?:^|[\n.!?;:]\s*|\b(?:please|now|then|also|immediately|quietly|silently|secretly|first|and)\s+)(?:reveal|disclose|divulge)\s+(?:to\s+me\s+)?(?:all\s+(?:of\s+)?)?your\s+(?:\w+\s+){0,2}?(?:secrets?|credentials?|tokens?|private\s+keys?|api\s+keys?|passwords?|ssh\s+keys?|environment\s+variables|env\s+vars?|\.env(?:\s+file)?|cookies|access\s+keys?)\b",
        r"(?i)\b(?:send|upload|post|email|forward|transmit)\s+(?:me\s+|us\s+)?(?:all|every)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:\w+\s+){0,2}?(?:secrets?|credentials?|tokens?|private\s+keys?|api\s+keys?|passwords?|ssh\s+keys?|environment\s+variables|env\s+vars?|\.env(?:\s+file)?|cookies|access\s+keys?)\b",
        r"(?i)\b(?:send|upload|post|email|forward|transmit)\s+(?:\w+\s+){0,3}?(?:secrets?|credentials?|tokens?|private\s+keys?|api\s+keys?|passwords?|ssh\s+keys?|environment\s+variables|\.env(?:\s+file)?|cookies)\s+to\s+(?:https?://|[\w.+-]+@[\w-]+\.|me\b|us\b|this\s+(?:url|address|endpoint|webhook)|the\s+(?:following|attacker))",
        // role-play jailbreaks
        r"(?i)\bdo\s+anything\s+now\b|\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue)\b|\bpretend\s+(?:that\s+)?you\s+(?:are|have)\s+(?:no\s+(?:rules|restrictions|guidelines|limits|filters)|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken))",
        r"(?i)\bfrom\s+now\s+on\s*,?\s+(?:you\s+(?:are|will|must|shall)\s+(?:\w+\s+){0,2}?(?:ignore|disregard|obey|respond|answer|act|behave|pretend|comply|roleplay)|ignore|disregard)\b",
    ])
    .expect("prompt override patterns")
});

/// Whether the text is phrased as an instruction to the reading agent.
pub(super) fn prompt_override(text: &str) -> bool {
    PROMPT_OVERRIDE.is_match(text)
}
