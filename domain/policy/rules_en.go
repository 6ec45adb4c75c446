package policy

// English word classes.
const (
	enShow = "show|give|send|list|tell|share|export|download|display|print|email|forward|dump|" +
		"reveal|provide|get|pull|read|see|view|access|check|find|look_up|lookup|open"
	enAsk    = enShow + "|what|which|whats"
	enPeople = "customer*|client*|user*|visitor*|buyer*|guest*|people|person*|patient*|shopper*|" +
		"subscriber*|member*"
	enOthers = "other|others|another|all|all_the|all_your|every|everyone|everybody|previous|past|" +
		"recent|latest|last|todays|yesterdays|someone|somebody|the_other|your|your_other|those|these"
	enData = "lead|leads|order|orders|conversation*|chat|chats|message|messages|report|reports|" +
		"booking|bookings|reservation*|appointment*|contact*|email*|phone*|number|numbers|" +
		"address*|data|details|info|information|history|purchase*|sales|name|names|record*|" +
		"transcript*|payment*|list|database|profile*|account*"
	enContact = "name|names|email|emails|email_address|email_addresses|phone|phone_number|" +
		"phone_numbers|number|numbers|address|addresses|contact|contacts|contact_details|" +
		"contact_info|personal_data|personal_details|list|database|details"
	enBusy = "orders|messages|conversations|chats|sales|purchases|leads"
	enWhen = "todays|yesterdays|this_weeks|this_months|last_weeks|recent|latest|new|all|" +
		"all_the|every|pending|incoming"
	enBooked     = "bookings|reservations|appointments"
	enBookedWhen = "todays|yesterdays|this_weeks|this_months|last_weeks|recent|latest|pending|" +
		"incoming|past|previous|other_peoples|everyones"
	enChange = "change|changing|update|updating|modify|edit|set|alter|adjust|rewrite|replace|" +
		"switch|reset|reconfigure|reprogram|retrain|configure|tweak|customize|customise|rename|make"
	enRules = "instructions|instruction|rules|prompts|prompt|directions|guidelines|directives|" +
		"commands|programming|restrictions|limitations|constraints|policies|policy|guardrails|" +
		"safety_filters|content_filters|safeguards|training|context|conditioning|settings"
	enAdmin = "admin|administrator|owner|developer|root|superuser|sysadmin|manager|staff|system|" +
		"unrestricted|unfiltered|uncensored|dan|evil|jailbroken|hacker|god|another_ai|" +
		"a_different_ai|chatgpt|an_ai_without|an_assistant_without"
	enRole = "owner|owners|co_owner|coowner|admin|administrator|manager|boss|ceo|founder|" +
		"cofounder|co_founder|developer|dev|staff|employee|proprietor|webmaster|site_owner|" +
		"store_owner|shop_owner|business_owner|operator|creator|programmer|master|superuser|" +
		"moderator|director|supervisor"
	// enEnd follows "your instructions" when the sender asks for them as such, not for
	// "instructions for assembling the table".
	enEnd = "$|above|again|verbatim|word_for_word|exactly|in_full|please|now|and|from|that|" +
		"you_were|you_have|you_got|you_received|given|so|then|here|to_me|in_a_code_block|as_is|" +
		"literally|are|were|say|said|look_like|right_now"
	enToldEnd = "$|before|at_the_start|at_the_beginning|initially|originally|to_do|to_say|not_to|" +
		"to_never|to_hide|by_the_owner|by_your|by_the_developer|by_the_business|in_your|" +
		"in_the_system|in_the_prompt|earlier|previously|first|above|secretly"
)

// english holds the English rules.
var english = lexicon{
	claims: claim("^ of|at|for|in a|an|my|some|one|two|several|another|small|big|local",
		"i_am|im|i_m|this_is|here_is|its|it_is|speaking_as|as|being|me_being the|a|an|your|this|one_of_the? "+enRole,
		"i_own|i_run|i_manage this|the|that store|shop|business|site|website|company|bakery|restaurant|place|bot|chatbot",
		"i_work|im_working here|for_you|for_this|at_this|in_this",
		"i created|built|made|programmed|configured|trained|own you",
		"i_set_you_up|im_your_creator|i_am_your_creator|im_in_charge|i_am_in_charge",
		"on_behalf_of the|your? owner|management|admin|boss|manager",
		"the|your owner|boss|manager|admin here|speaking|asked_me|told_me|wants|authorized|authorised|sent_me",
		"my store|shop|business|company|bakery|restaurant|website|site|bot|chatbot|agent|assistant",
	),
	ownerOnly: append(strict(
		enAsk+"|pull_up ~4 messages|notifications|inbox|dashboard|account_balance|balance|usage|"+
			"interactions|billing|password|api_key|credentials|stats|statistics|activity|"+
			"activities|tasks|agenda|calendar|customers|clients|visitors|reviews|feedback|settings|logs",
		"follow|obey|execute|carry_out ~1 my|these|the_following order|orders|command|commands|instruction|instructions",
		"obey|listen_to me|my", "do_as_i_say|do_what_i_say|do_what_i_tell_you",
		"tell|inform|announce|notify|message|email|text|reply_to|answer|respond_to ~1 all|every|the? customers|clients|everyone|everybody|visitors|users|subscribers",
	), own(
		enShow+" ~4 orders|bookings|reservations|appointments|schedule|invoices|payments|sales",
		"cancel|refund|approve|confirm|accept|reject|decline ~3 order|orders|booking|bookings|reservation|reservations|appointment|appointments|refund|refunds|payment|payments",
	)...),
	override: append(own(
		"ignore|ignoring|disregard|forget|skip|bypass|override|overriding|drop|abandon|discard|overlook|neglect|erase|clear|reset ~3 "+
			"previous|prior|above|earlier|preceding|former|initial|original|all|your|every|system|existing|default|safety|hidden ~2 "+enRules,
		"do_not|dont|stop|quit|no_longer|never ~1 follow|following|obey|obeying|respect|respecting|apply|applying ~2 "+
			"your|the|any|those|these|previous|prior|system|above ~1 instructions|rules|guidelines|programming|restrictions|directives|prompt|policies|filters",
	), strict(
		"forget|disregard everything|all|anything ~3 you_were_told|you_know|you_have_been_told|youve_been_told|above|before|previous|so_far|you_learned|until_now",
		"you_are_now|youre_now a|an|in|dan|free|unrestricted|unfiltered|uncensored|no_longer|acting|going|allowed|able|called|named|operating|playing|evil|jailbroken|not",
		"you_are_no_longer|youre_no_longer bound|restricted|limited|an|a|required|subject",
		"from_now_on|henceforth|starting_now ~1 you_are|youre|you_will_be|act|respond|answer|reply|ignore|behave|be|talk|speak|pretend|you_must|you_will|you_have_no|you_dont_have_to|there_are_no",
		"pretend ~2 to_be|you_are|youre|that|you_have|there_are|you_can|we_are|im|i_am|you_were",
		"roleplay|role_play|role_playing|play_the_role|play_a_role|impersonate|simulate_being|simulate_a",
		"act|acting|behave|respond|answer|reply|talk|speak|pose|operate|function as|like ~3 "+enAdmin,
		"imagine you_are|youre|you_were ~3 "+enAdmin+"|without|with_no|free",
		"developer|dev|god|admin|administrator|debug|debugging|sudo|root|unrestricted|unfiltered|uncensored|jailbreak|jailbroken|dan|evil mode",
		"jailbreak*|jail_break*|do_anything_now|dan_prompt|prompt_injection|sudo|system_override|override_mode|admin_override|developer_override",
		"assistant|bot|chatbot|ai|agent|model|version|mode|persona|character|yourself ~2 without|with_no|no|free_of|free_from ~1 rules|restrictions|filters|guardrails|limits|limitations|censorship|boundaries|guidelines|morals|ethics",
		"here_are|these_are|follow|obey|use|accept|apply ~2 your|these|the? new|updated|revised|real|actual|true|override|overriding instructions|system_prompt|directives|prompt|system_message|programming",
		"your new|real|actual|true|only instructions|role|task|purpose|persona|personality|identity|name|directive|goal|job|mission|objective is|are|will_be|now|from_now_on",
		"^ system|admin|developer|root message|note|override|command|update|instruction|instructions|prompt|alert|mode|new_instructions|new_rules|new_prompt",
		"im_start|im_end|endoftext|begin_of_text|start_header_id|end_header_id",
		"disable|turn_off|switch_off|deactivate|remove|bypass|lift|drop ~1 your|all|any|all_your|all_the ~1 safety|content|security? filters|filter|guardrails|restrictions|censorship|safeguards|moderation",
		"disable|turn_off|switch_off|deactivate|remove|bypass|lift|drop|override ~2 safety|content|security filters|filter|guardrails|restrictions|checks|safeguards|moderation|protocols|settings",
	)...),
	prompt: append(strict(
		"system|initial|original|hidden|secret|internal|underlying|developer|pre|meta|base|master|confidential prompt|prompts",
		"system_message|systemprompt|sysprompt",
		"translate ~2 your ~1 instructions|prompt|rules|guidelines|directives|programming",
		enShow+"|repeat|output|write|say|recite|paste|copy|translate|summarize|summarise|paraphrase|explain|describe|spell_out|encode ~4 "+
			"your|the_system|the_hidden|the_secret|the_initial|the_original|the_internal|your_hidden|your_secret|your_initial|your_original|your_internal|your_system|your_exact|your_full|your_complete|your_real|your_actual|the_full|the_exact|the_complete ~1 "+
			"instructions|prompt|programming|configuration|config|directives|guidelines|rules|setup|settings|context|parameters|system_message "+enEnd,
		"hidden|secret|internal|initial|original|underlying|confidential|system|developer|preset|predefined|real|actual instructions|rules|guidelines|directives|configuration|config|programming|system_message "+enEnd,
		enShow+" ~2 the? prompt $",
		"starting_with|beginning_with|that_starts_with|that_begins_with|starts_with|begins_with you_are|youre|you_will|as_an|system|your_instructions",
		"what ~1 were|have|had|are you ~1 told|instructed|programmed|prompted|configured|trained|given|asked|ordered "+enToldEnd,
		"how were|are|have you ~1 programmed|instructed|prompted|configured "+enToldEnd,
		"what|which instructions|prompt|directives|rules|guidelines|restrictions were|have|did|are|do|must you ~1 given|told|get|got|received|receive|follow|following|obey|programmed|trained|operating_under|under|bound_by",
		"the_rules|the_instructions|the_guidelines|the_directives you ~1 operate_under|were_given|have_been_given|got|received|must_follow|are_following|follow_in_this_chat",
		"what|how ~1 did|does the_owner|the_business|the_developer|the_developers|your_owner|your_creator|your_creators|your_developer|they tell|instruct|ask|program|want|told you",
		"what|how would|do|does your instructions|prompt|system_prompt|rules|programming|directives say|look_like|read|contain",
		"everything|anything|all|text|words|what_was_said|what_was_written|what_came above|before|prior_to this|the_first|my_first line|message|conversation|chat|point",
		"told|said|written|given|sent|received|instructed to_you? before|prior_to|at_the_start_of|at_the_beginning_of this|our|the conversation|chat",
	), own(
		"repeat|print|output|show|copy|paste|write|say|recite|display|reproduce|echo|type|return|give|tell ~4 "+
			"text|words|message|messages|content|everything|all|lines|instructions|sentences|prompt ~2 "+
			"above|before|preceding|earlier|prior|so_far|at_the_top|at_the_start|at_the_beginning",
	)...),
	settings: append(strict(
		enChange+" ~3 tone|personality|persona|tone_of_voice ~2 to|into|so|and|$|from|of_the_bot|of_the_chat|of_your|of_the_agent|of_the_assistant|of_the_ai|of_voice|of_your_answers|of_your_replies",
		enChange+" ~3 your_tone|your_voice|writing_style|your_style|response_style|your_personality|your_persona|your_instructions|your_prompt|the_prompt|the_system_prompt|system_prompt|your_rules|your_greeting|greeting_message|welcome_message|the_greeting|the_bot|the_chatbot|the_ai|this_bot|this_chatbot|yourself|your_behavior|your_behaviour|your_name|your_answers|your_responses|your_replies|how_you_answer|how_you_respond|how_you_reply|how_you_talk|the_way_you_talk|the_way_you_answer|the_way_you_respond|your_language_model|your_model",
		enChange+"|raise|increase|lower|reduce|cut|drop|double|halve|slash|discount ~3 prices|price_list|pricing|price_of|price_to|all_prices|menu_prices",
		"make ~1 everything|all_products|all_items|all_the_products|the_whole_store|the_entire_store|every_product|the_whole_shop ~1 free",
		"create|generate|make|issue|add ~2 coupon*|discount_code*|promo_code*|voucher*|promotion*",
		"give|offer|apply ~3 discount|discounts ~2 to|for everyone|everybody|all|all_customers|every_customer|all_clients|all_orders|everything $|now|today|from_now_on|starting|please",
		"add|create|insert|publish|list|upload ~4 product*|item*|dish*|service* ~4 to|in|on|into the|your? catalog*|store|shop|site|website|menu|brain|inventory|knowledge_base|faq",
		"remove|delete|take_down|unpublish|hide|disable|deactivate ~4 product*|item*|dish*|service*|page*|post* ~1 from|on|in the|your? catalog*|store|shop|site|website|menu|brain|inventory",
		"edit|change|update|modify|rewrite ~3 product|products description*|name*|photo*|image*|picture*|title*|page*|listing*|stock|inventory|category",
		"update|change|set|edit|modify|adjust the|your? stock|inventory|stock_levels|stock_level",
		enChange+"|extend|shorten ~3 opening_hours|business_hours|store_hours|shop_hours|working_hours|opening_times|closing_time|opening_time|your_hours|your_schedule|holiday_hours|hours_of_operation|timetable",
		enChange+"|disable|enable|turn_off|turn_on|switch_off|switch_on|deactivate|activate|toggle ~3 your_settings|your_configuration|your_config|bot_settings|chatbot_settings|agent_settings|assistant_settings|widget_settings|chat_settings|store_settings|shop_settings|site_settings|website_settings|system_settings|admin_settings|business_settings|webhook|webhooks|api_key|api_keys|integration|integrations",
		enChange+"|disable|enable|turn_off|turn_on|deactivate|activate ~2 settings|configuration|config of|for the|this|your bot|chatbot|agent|assistant|ai|chat|store|shop|site|website|business|system|widget",
		"turn|switch|shut off|down ~2 the|this|your? bot|chatbot|agent|assistant|ai|chat|yourself|widget",
		"turn|switch|shut yourself off|down",
		"give|grant|open|show|send|access|enter|let_me_into|take_me_to|log_me_into ~3 admin|administrator|dashboard|admin_panel|control_panel|back_office|backoffice|backend|back_end|cms|wp_admin|admin_access|admin_rights|admin_privileges|full_access|root_access|superuser|owner_access",
		"be|become|start_being|talk|speak|respond|answer|reply|treat ~2 rude|rudely|mean|aggressive|aggressively|offensive|insulting|sarcastic|sarcastically|arrogant|vulgar|impolite ~2 to|with? ~1 customers|clients|everyone|everybody|people|users|visitors",
	), own(
		enChange+"|add|remove|delete|erase|wipe|clear|train|teach|retrain|overwrite|upload|insert|edit ~3 brain|knowledge|knowledge_base|faq|faqs|training_data|database|your_memory|the_memory|sources|crawl",
	)...),
	others: append(except("^ service|support|care|area|portal|guide|manual|login|satisfaction|experience|success|reviews|feedback",
		own(
			enShow+" ~5 "+enData+" ~3 "+enOthers+" ~1 "+enPeople,
			enAsk+" ~4 "+enContact+" of ~2 "+enPeople,
		)), own(
		enShow+" ~5 "+enOthers+" ~1 "+enPeople+" ~3 "+enData,
		"show|give|send|list|export|download|display|print|email|forward|dump|reveal|provide|pull|read|see|view|access|look_up|lookup ~4 customer|client|user|visitor|lead|subscriber|buyer list|database|data|emails|contacts|records|base|details|info|information|names|numbers|phone_numbers|addresses|history",
		enShow+" ~5 "+enWhen+" "+enBusy,
		enShow+" ~5 "+enBookedWhen+" "+enBooked,
		"who ~1 was|were the? last|previous|other|first person|people|customer|customers|client|clients ~1 you ~1 talked|spoke|chatted|helped|served|answered",
		enShow+" ~4 "+enBusy+"|"+enBooked+" from|of|for|placed|made|received today|yesterday|this_week|this_month|last_week|last_month",
		enAsk+" ~4 leads|lead_list|transcripts|chat_logs|revenue|earnings|turnover|analytics|statistics|metrics|kpis|sales_figures|sales_report|daily_report|weekly_report|monthly_report|activity_report|conversation_report|mailing_list",
		"which|what customers|clients|people|users|visitors ~2 ordered|bought|booked|purchased|visited|came|asked|wrote|chatted|reserved|paid",
		"list|export|download|dump|show|give|send ~1 all|every|all_your|all_the|your|the customers|clients|leads|users|visitors|contacts|subscribers|buyers $|who|that|from|with|of|and|today|yesterday|this|names|emails|please|you_have",
		"who_else ~2 order*|bought|buy*|book*|asked|wrote|chatted|contacted|visited|reserved|purchased|came",
		"what|which ~1 did|have|has ~1 other|others|another|the_other|the_previous|previous|past|your_other|the_last|last|the_latest|the_first ~1 "+enPeople+" ask*|say|said|tell|told|write|wrote|talk*|chat*|complain*|order*|bought|book*",
		"cancel|refund|delete|remove|approve|confirm|reject|decline|change|modify|edit|move|reschedule ~2 all|every|all_the|everyones|everybodys|todays|other_customers|other_peoples|someone_elses|somebody_elses|another_customers ~2 orders|bookings|reservations|appointments|order|booking|reservation|appointment",
		"how_many leads|sales|conversations|chats|visitors|customers|clients|orders|bookings|reservations|messages ~3 today|yesterday|this_week|this_month|so_far|last_week|last_month|were_placed|came_in|did_you_get|did_you_have|have_you_had|have_you_got|did_we_get|have_we_had",
	)...),
}
