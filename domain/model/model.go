// Package model holds the shape of a chat-model request and reply, in the widely used
// chat-completions form, independent of any provider.
package model

// Roles of a message.
const (
	RoleSystem    = "system"
	RoleDeveloper = "developer"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Part is one piece of a message's content: text, or an image by URL (https or data:image).
type Part struct {
	Type     string // "text" or "image_url"
	Text     string
	ImageURL string
	Detail   string
}

// ToolCall is a function call the model asked for. Arguments is a JSON-encoded object.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Message is one message of a conversation. Content holds plain text; Parts, when set, holds
// mixed content instead.
type Message struct {
	Role       string
	Content    string
	Parts      []Part
	Name       string
	ToolCalls  []ToolCall
	ToolCallID string
}

// Tool is a function the model may call. Parameters is a JSON Schema, JSON-encoded.
type Tool struct {
	Name        string
	Description string
	Parameters  []byte
	Strict      bool
}

// ToolChoice says whether and which tool the model must call: Mode "auto", "none", "required",
// or "function" with Name.
type ToolChoice struct {
	Mode string
	Name string
}

// ResponseFormat asks for JSON output: Type "text", "json_object" or "json_schema" (with Name,
// Schema as JSON, Strict).
type ResponseFormat struct {
	Type   string
	Name   string
	Schema []byte
	Strict bool
}

// Request asks a model for the next message.
type Request struct {
	Model          string
	Messages       []Message
	Tools          []Tool
	ToolChoice     *ToolChoice
	ResponseFormat *ResponseFormat
	Temperature    *float64
	TopP           *float64
	Stop           []string
	Seed           *int64
	MaxTokens      int
	User           string
	// The sampling and output options an OpenAI-compatible upstream takes as they are (the
	// built-in engine has no use for them, once checked): whether the model may call several
	// tools in one reply (nil: the upstream's default), the log probabilities of the reply's
	// tokens (TopLogprobs alternatives of each, only with Logprobs), and the penalties of
	// repeated tokens (-2 to 2).
	ParallelToolCalls *bool
	Logprobs          *bool
	TopLogprobs       *int
	FrequencyPenalty  *float64
	PresencePenalty   *float64
}

// Usage counts the tokens of a request and its reply.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	TotalTokens      int
}

// Finish reasons.
const (
	FinishStop          = "stop"
	FinishLength        = "length"
	FinishToolCalls     = "tool_calls"
	FinishContentFilter = "content_filter"
)

// Response is a model's reply.
type Response struct {
	ID           string
	Model        string
	Created      int64
	Message      Message
	FinishReason string
	Usage        Usage
	// Logprobs is the upstream's log probabilities of the reply's tokens (a chat completion
	// choice's logprobs, JSON as it came), nil when it gave none.
	Logprobs []byte
}

// Chunk is one piece of a streamed reply: new text, tool-call fragments (Index says which call
// a fragment belongs to; ID and Name come with a call's first fragment), or the end (FinishReason
// set; Usage may come with it).
type Chunk struct {
	Content      string
	ToolCalls    []ToolCallDelta
	FinishReason string
	Usage        *Usage
}

// ToolCallDelta is a fragment of a streamed tool call.
type ToolCallDelta struct {
	Index     int
	ID        string
	Name      string
	Arguments string
}
