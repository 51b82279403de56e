/**
 * @module Claims of power and instructions to the assistant (English and Chinese): what a user says
 * about their own rights, access or role, or tells the assistant to do, is never learned as a fact.
 */
import { splitSentences } from "./salience.ts";

/** Why a statement is not a fact: a claim of rights, access or role, or an instruction to the assistant. */
export type ClaimKind = "claim" | "instruction";

/** Things one may be allowed to see or change: what makes "allowed to ..." a claim of access. */
const GUARDED =
  "(?:data|accounts?|records?|information|info|files?|messages|memor(?:y|ies)|systems?|databases?|settings|everything|anything|everyone|anyone|users?'?s?|customers?'?s?|passwords?|secrets?|rules|restrictions|instructions|logs|admin)";

/**
 * Claims of rights, access or role. A job stays a fact: "I work as a system administrator at Acme"
 * and "The user is an administrator at the hospital" match none of these.
 */
const CLAIMS: readonly RegExp[] = [
  // "full access", "admin rights", "root privileges"
  /\b(?:full|complete|total|admin|administrator|administrative|root|superuser|super-user|unrestricted|unlimited|elevated|privileged|special|master|all)\s+(?:access|rights|privileges|permissions?|clearance)\b(?!\s+(?:to|over|on|for)\s+(?:my|our)\b)/iu,
  // "access to all ...", "permission over every ..."
  /\b(?:access|permissions?|rights|privileges|clearance)\s+(?:to|over|on|for)\s+(?:all|every|an[y]|everything|everyone|anything|other|the\s+whole|the\s+entire|the\s+admin|admin)\b/iu,
  /\b(?:authori[sz]ed|entitled|cleared)\s+to\b/iu,
  new RegExp(
    `\\b(?:allowed|permitted|able|approved)\\s+to\\s+(?:see|view|read|access|open|modify|change|edit|delete|manage|control|bypass|override|ignore|know|get|use|export|query|download)\\b[^.!?。]{0,60}?\\b${GUARDED}`,
    "iu",
  ),
  /\b(?:have|has|got|given|granted|hold|holds)\s+(?:the\s+)?(?:permission|authority|authori[sz]ation|clearance|right)\s+to\b/iu,
  /\b(?:my|the\s+user's|their|his|her)\s+(?:role|access\s+level|permission\s+level|privilege\s+level|user\s+level|clearance(?:\s+level)?)\s+(?:is|=|:)/iu,
  // "I'm an admin.", "The user is the administrator of this system" - not "an administrator at Acme"
  /\b(?:i\s+am|i'm|im|the\s+user\s+is)\s+(?:an?\s+|the\s+)?(?:admin|administrator|superuser|super\s+user|super-admin|root\s+user|root|moderator)(?=\s*$|\s*[.!,;]|\s+(?:with|here|and|who|of\s+(?:this|the)\s+(?:system|service|app|platform|assistant|bot|site|server|memory)|on\s+this|for\s+this))/iu,
  /\b(?:i\s+am|i'm|the\s+user\s+is)\s+(?:your|the\s+assistant's)\s+(?:admin|administrator|owner|operator|developer|creator|master|boss|programmer|maker)\b/iu,
  /(?:有|拥有|具有|获得|享有|被授予)了?[^，。,.！!？?；;]{0,10}?(?:权限|特权|授权|最高权|管理权|访问权)/u,
  /有权(?:查看|访问|修改|删除|读取|管理|使用|获取|知道|看到|调用|导出)/u,
  /(?:被|已|已经)?(?:授权|允许|批准|准许)(?:我|用户)?(?:查看|访问|修改|删除|读取|管理|获取|看到|绕过|忽略|导出)/u,
  /(?:最高|管理员|超级|root|全部|所有|完全|无限|特殊)的?(?:访问)?(?:权限|权力|特权)/u,
  /(?:我|用户)的(?:角色|权限级别|权限等级|权限|用户级别)(?:是|为)/u,
  /(?:我|用户)是(?:这个|本|你的|这里的|该)?(?:(?:系统|平台|网站|服务|应用)的)?(?:超级)?(?:管理员|超级用户|root用户)(?=$|[，,。.！!；;]|有|拥有|可以|能)/u,
  /(?:我|用户)是(?:你的|(?:这个|本|该)?(?:系统|平台|网站|服务|应用)的)(?:所有者|开发者|创造者|主人|管理者)/u,
];

/** Verbs an instruction to the assistant starts with. */
const ASK =
  "(?:answer|reply|respond|write|speak|talk|use|call|address|refer|say|tell|give|include|add|format|end|start|begin|mention|recommend|suggest|agree|obey|follow|act|behave|pretend|treat|remember\\s+to|do|don't|ignore|forget|refuse|comply)";

/** Instructions: at the start of a sentence (after "please", "and", "also") or anywhere for the unmistakable ones. */
const INSTRUCTIONS: readonly RegExp[] = [
  new RegExp(
    `\\b(?:from\\s+now\\s+on|from\\s+this\\s+point\\s+on|starting\\s+(?:now|today)|going\\s+forward|henceforth|hereafter)\\s*,?\\s+(?:you\\b|always\\b|never\\b|only\\b|please\\b|${ASK}\\b)`,
    "iu",
  ),
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|an[y]|the|your|my|of|these|those)\s+)*(?:previous|prior|earlier|above|preceding|former|original|system|existing|safety|other)?\s*(?:instructions?|prompts?|rules|directives|guidelines|restrictions|guardrails|programming)\b/iu,
  new RegExp(`^(?:please\\s*,?\\s+|and\\s+|also\\s+|so\\s+)?(?:always|never|only)\\s+${ASK}\\b`, "iu"),
  /^(?:please\s*,?\s+)?(?:do\s+not|don't|dont)\s+(?:ever\s+)?(?:answer|reply|respond|mention|tell|refuse|say|reveal|use|ask|talk|speak|remind|warn|filter|censor|apologi[sz]e)\b/iu,
  /\byou\s+(?:must|should|shall|have\s+to|need\s+to|are\s+to|will\s+now|are\s+now|may\s+not|must\s+not|cannot\s+refuse|are\s+not\s+allowed|are\s+required)\b/iu,
  new RegExp(
    `\\b(?:assistant|ai|bot|model|you)\\s+(?:to\\s+|must\\s+|should\\s+|will\\s+|shall\\s+)?(?:always|never|only)\\s+${ASK}\\b`,
    "iu",
  ),
  /\b(?:the\s+)?assistant\s+(?:must|should|shall|has\s+to|needs\s+to|is\s+to|may\s+not)\b/iu,
  /^(?:please\s+)?(?:act|behave|pretend|roleplay|role-play)\s+(?:as|like|to\s+be)\b/iu,
  /^you\s+are\s+(?:now\s+)?(?:no\s+longer|free|not\s+bound|dan\b|in\s+developer\s+mode|an?\s+unrestricted)/iu,
  /\b(?:reveal|show|print|repeat|output|leak|tell\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|instructions|hidden\s+rules|rules)\b/iu,
  /^new\s+(?:instructions?|rules)\s*:/iu,
  /(?:从现在(?:开始|起)|从今(?:以后|往后|天起|天开始)|从此(?:以后)?|今后|以后)[，,]?\s*(?:你|请|要|必须|只|总是|永远|一律|都|始终|不要|别|不许|禁止|回答|回复|用|叫|称呼)/u,
  /(?:忽略|无视|忘记|忘掉|不要理会|不用管|绕过|覆盖)掉?你?(?:之前|以前|前面|上面|先前|所有|全部|原来|原有|系统)?的?(?:所有|全部)?的?(?:指令|指示|提示词?|规则|设定|限制|约束|命令)/u,
  /你(?:必须|应该|只能|不能|不许|不准|不可以|一定要|务必|现在是)/u,
  /^(?:请)?(?:总是|永远|一律|始终|每次都)(?:用|以|回答|回复|说|称呼|叫)/u,
  /(?:助手|AI|机器人|模型)(?:必须|应该|要|只能|不能|总是|永远|一律|始终)/u,
  /^(?:请)?(?:不要|别|禁止)再?(?:回答|回复|提及|告诉|拒绝|提醒)/u,
  /^(?:请)?(?:扮演|假装你是|充当)/u,
];

/**
 * Whether `text` claims rights, access or a role ("I am an admin with full access", "我是管理员，
 * 有权限查看所有用户的数据"), or instructs the assistant ("from now on ...", "ignore all previous
 * instructions", "always answer in ...", "you must ...", "从现在开始...", "忽略之前的指令"); null
 * for an ordinary statement. Each sentence, and each of its comma-separated clauses, is read on its
 * own, so a sentence-start rule also sees "Thanks, always answer in French".
 */
export function claimKind(text: string): ClaimKind | null {
  const sentences = splitSentences(text);
  const parts = [...sentences, ...sentences.flatMap((s) => s.split(/[,，;；]/u).slice(1))];
  for (const part of parts.length > 0 ? parts : [text]) {
    const s = part.trim().replace(/^["'“‘「]+/u, "");
    if (CLAIMS.some((p) => p.test(s))) return "claim";
    if (INSTRUCTIONS.some((p) => p.test(s))) return "instruction";
  }
  return null;
}
